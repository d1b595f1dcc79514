import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    // Only bounds a hang: beside the package suites on 2 cores, a CLI through pnpm (then tsx) took over 60 s at load ~20.
    testTimeout: 120_000,
    // expect.poll waits for a condition; its default second is too short for a busy shared 2-core machine, where the
    // package suites and tests/ run side by side. Like the timeout above, it only bounds a hang.
    expect: { poll: { timeout: 20_000 } },
    hookTimeout: 180_000,
    // The stacks run the compiled apps: build them (a turbo cache hit when nothing changed) before any file.
    globalSetup: ['support/build-apps.ts'],
    projects: [
      {
        extends: true,
        // Each file starts its own stack on its own ports and files: two at a time on our 2 cores. Workers are not
        // isolated (a worker loads the clients, nodemailer and the support code once for all its files): no file mocks
        // a module, and tests/support keeps no state between files but the e2e workers' Chromium.
        test: { name: 'integration', include: ['integration/**/*.test.ts'], maxWorkers: 2, isolate: false, sequence: { groupOrder: 0 } },
      },
      {
        extends: true,
        // Real servers per file, after the integration files, two files at a time (most of a file's time is spent
        // waiting on pages and servers). Workers are not isolated, so each keeps one Chromium (support/browser.ts) for
        // all its files, each test in contexts of its own.
        test: { name: 'e2e', include: ['e2e/**/*.test.ts'], maxWorkers: 2, isolate: false, sequence: { groupOrder: 1 } },
      },
    ],
  },
})
