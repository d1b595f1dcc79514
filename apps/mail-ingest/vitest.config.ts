import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    // Real SMTP sessions and worker threads: generous limits for a busy 2-core machine, no timing assertions.
    testTimeout: 60_000,
    // expect.poll waits for a condition; its default second is too short for a busy shared 2-core machine, where the
    // package suites and tests/ run side by side. Like the timeouts above, it only bounds a hang.
    expect: { poll: { timeout: 20_000 } },
    // Each file has its own database and ports, and most of a file's time is spent waiting on servers and argon2:
    // two workers on two cores (vitest's default there is one) cut the suite's wall time by 35-40 %.
    maxWorkers: 2,
    // One real PostgreSQL for the run: the store's suites run on it and on SQLite.
    globalSetup: ['@tempbox/db/testing/global-setup'],
    hookTimeout: 60_000,
    // A worker loads the server and its dependencies once for all its files: each test opens its own database and
    // server, and fake timers are put back in a finally.
    isolate: false,
    setupFiles: ['./test/fast-check-seed.ts'],
  },
})
