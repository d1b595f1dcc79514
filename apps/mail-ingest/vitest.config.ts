import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    // Real SMTP sessions and worker threads: generous limits for a busy 2-core machine, no timing assertions.
    testTimeout: 30_000,
    // One real PostgreSQL for the run: the store's suites run on it and on SQLite.
    globalSetup: ['@tempbox/db/testing/global-setup'],
    hookTimeout: 60_000,
    setupFiles: ['./test/fast-check-seed.ts'],
  },
})
