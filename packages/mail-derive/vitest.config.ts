import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    setupFiles: ['./test/fast-check-seed.ts'],
    // Pure functions, no module mocked and no state kept between files: one worker per core, each loading the
    // package once for all its files (import was more than half of the suite's time when each file loaded it anew).
    maxWorkers: 2,
    isolate: false,
  },
})
