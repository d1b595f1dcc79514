import { defineConfig } from 'vitest/config'

// Stryker runs the covering tests once per mutant. The fast-check properties (300 random runs each) check invariants
// that the example tests also pin, and would multiply the run's cost by a hundred; they stay in `pnpm test`.
export default defineConfig({
  test: {
    exclude: ['test/property.test.ts', '**/node_modules/**'],
  },
})
