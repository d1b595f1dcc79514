import { setupServer } from 'msw/node'
import { emailHandlers } from './email-handlers'

/** The msw server of the web unit tests; unhandled requests fail the test. */
export const server = setupServer(...emailHandlers)
