import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['integration/**/*.test.ts', 'e2e/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    // The stacks run the compiled apps: build them (a turbo cache hit when nothing changed) before any file.
    globalSetup: ['support/build-apps.ts'],
    // Real servers and a real browser per file: run files one at a time on our 2 cores.
    fileParallelism: false,
  },
})
