import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    // One real PostgreSQL for the run: the storage tests run on it and on SQLite.
    globalSetup: ['./src/testing/global-setup.ts'],
    hookTimeout: 60_000,
  },
})
