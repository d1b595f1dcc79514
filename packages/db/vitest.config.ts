import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    // One real PostgreSQL for the run: the storage tests run on it and on SQLite.
    globalSetup: ['./src/testing/global-setup.ts'],
    hookTimeout: 60_000,
    // A hang detector, not a speed check: migrations over real PostgreSQL take seconds on a loaded 2-core machine.
    testTimeout: 30_000,
    // expect.poll waits for a condition; its default second is too short for a busy shared 2-core machine, where the
    // package suites and tests/ run side by side. Like the timeouts above, it only bounds a hang.
    expect: { poll: { timeout: 20_000 } },
    // Most of the suite's time is spent waiting on PostgreSQL and fsync: two workers, each loading the package once
    // for all its files (no file mocks a module, and the modules keep state only per open database).
    maxWorkers: 2,
    isolate: false,
  },
})
