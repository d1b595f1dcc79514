import { defineConfig } from 'vitest/config'
import { loadFailures } from './vitest.mutation.config.js'

// The check of the load-failure reporter (stryker.load-failure.json): its fixture alone, with the reporter.
export default defineConfig({ test: { include: ['test/load-failure/*.test.ts'], reporters: ['default', loadFailures] } })
