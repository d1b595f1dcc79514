import { configDefaults, defineConfig } from 'vitest/config'

/**
 * Suites that run a second time on PostgreSQL (project `postgres`): each app in them gets a database of its own on the
 * run's throwaway server (test/helper.ts). Not here: suites without a database (nothing to compare), cluster-shared-state
 * (its workers share a SQLite file of their own), and suites about what the api does above the queries that others here
 * run: poll-fast-path (answers from the in-process listing cache), email-message-view-bytes (the view's serializer),
 * webhook-target (which hosts a webhook may reach).
 */
const ON_POSTGRES = [
  'analytics', 'auth', 'config-database', 'contact', 'email-burn', 'email-burn-shortens', 'email-code', 'email-deliveries', 'email-derived', 'email-generate', 'email-inbox', 'email-live', 'email-message-auth',
  'email-message-attachments', 'email-message-headers', 'email-message-text', 'email-message-view-cache', 'email-message', 'email-read-state', 'email-release', 'email-search-unicode',
  'email-search', 'email-search-attack', 'email-search-tag', 'email-shared-message', 'email-wait-filters', 'email-wait-near-misses', 'guess-limit', 'links', 'login-lockout', 'refresh-sessions', 'sessions', 'setup', 'webhook-delivery',
].map((name) => `test/${name}.test.ts`)

/** Suites about what only PostgreSQL does (several API nodes on one database): the `postgres` project alone runs them. */
const ONLY_POSTGRES = 'test/postgres-*.test.ts'

/** Suites that replace one of our modules (`vi.mock`): a worker shared with other files would keep the real one. */
const MOCKS_MODULES = ['test/email-generate-retired.test.ts']

/** Stryker's sandbox copies the tests under .stryker-tmp/: a run beside a mutation run must not pick them up. */
const EXCLUDE = [...configDefaults.exclude, '.stryker-tmp/**']

export default defineConfig({
  test: {
    // argon2 hashing, real database files and forked workers: on a busy 2-core machine a test can take well over
    // vitest's default 5 s without anything being wrong. The limit only bounds a hang; no test asserts on time.
    testTimeout: 30_000,
    exclude: EXCLUDE,
    // expect.poll waits for a condition; its default second is too short for a busy shared 2-core machine, where the
    // package suites and tests/ run side by side. Like the timeouts above, it only bounds a hang.
    expect: { poll: { timeout: 20_000 } },
    // Each file has its own database and ports, and most of a file's time is spent waiting on servers and argon2:
    // two workers on two cores (vitest's default there is one) cut the suite's wall time by 35-40 %.
    maxWorkers: 2,
    hookTimeout: 60_000,
    // A worker runs its files one after another with Fastify and the app loaded once (loading them for each of ~100
    // files was a third of the suite's CPU). Sound because each test builds its own app on its own database and the
    // app keeps no state at module level; files that mock a module get fresh workers (`sqlite-mocks`).
    isolate: false,
    setupFiles: ['test/remove-folders.setup.ts'],
    projects: [
      { extends: true, test: { name: 'sqlite', exclude: [...EXCLUDE, ONLY_POSTGRES, ...MOCKS_MODULES] } },
      { extends: true, test: { name: 'sqlite-mocks', include: MOCKS_MODULES, isolate: true } },
      {
        extends: true,
        test: {
          name: 'postgres',
          include: [...ON_POSTGRES, ONLY_POSTGRES],
          env: { TEST_ENGINE: 'postgres' },
          // One throwaway PostgreSQL for the run, with a migrated template database (started only when this project runs).
          globalSetup: ['@tempbox/db/testing/global-setup'],
        },
      },
    ],
  },
})
