import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    // argon2 hashing, real database files and forked workers: on a busy 2-core machine a test can take well over
    // vitest's default 5 s without anything being wrong. The limit only bounds a hang; no test asserts on time.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
})
