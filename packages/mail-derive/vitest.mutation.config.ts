import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

// Runs only in Stryker's sandbox (<package>/.stryker-tmp/sandbox-*/), four levels under the repository root: the reporter
// there counts a test file that fails to load as a failed test (a kill), not as no tests.
const loadFailures = fileURLToPath(new URL('../../../../scripts/stryker/load-failure-reporter.ts', import.meta.url))

// Stryker runs the covering tests once per mutant. The fast-check properties (300 random runs each) check invariants
// that the example tests also pin, and would multiply the run's cost by a hundred; they stay in `pnpm test`. So do the
// code-word and preview suites: they test no mutated module, yet every static mutant ran them (60 % of its test time).
export default defineConfig({
  test: {
    exclude: ['test/property.test.ts', 'test/code-words.test.ts', 'test/preview.test.ts', '**/node_modules/**'],
    reporters: ['default', loadFailures],
  },
})
