import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

// Runs only in Stryker's sandbox (<package>/.stryker-tmp/sandbox-*/), four levels under the repository root: the reporter
// there counts a test file that fails to load as a failed test (a kill), not as no tests.
export const loadFailures = fileURLToPath(new URL('../../../../scripts/stryker/load-failure-reporter.ts', import.meta.url))

export default defineConfig({ test: { exclude: ['test/load-failure/**', '**/node_modules/**'], reporters: ['default', loadFailures] } })
