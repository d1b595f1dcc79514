import '@testing-library/jest-dom/vitest'
import { afterEach } from 'vitest'
import { cleanup } from '@testing-library/react'
import { NAMESPACES } from '@tempbox/i18n'
import { ensureNamespaces } from '../lib/i18n'

// The app loads some English namespaces with their lazy chunks; components under test get them all up front.
await ensureNamespaces(NAMESPACES)

afterEach(() => {
  cleanup()
  localStorage.clear()
})
