import { defineConfig } from 'vitest/config'
import react from '@vitejs/plugin-react'

export default defineConfig({
  plugins: [react()],
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/testing/setup-tests.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    // One jsdom and one module graph per worker, not per file (they were most of the suite's CPU). Each test renders
    // into a cleaned document with an empty localStorage (setup-tests.ts); a test that needs a fresh store sets it.
    isolate: false,
    // A hang detector, not a speed check: a loaded 2-core machine takes more than vitest's 5 s for the larger renders.
    testTimeout: 30_000,
  },
})
