import { fileURLToPath } from 'node:url'
import { defineConfig, mergeConfig } from 'vitest/config'
import base from './vitest.config.js'

// Runs only in Stryker's sandbox (<package>/.stryker-tmp/sandbox-*/), four levels under the repository root: the reporter
// there counts a test file that fails to load as a failed test (a kill), not as no tests.
const loadFailures = fileURLToPath(new URL('../../../../scripts/stryker/load-failure-reporter.ts', import.meta.url))

// Stryker runs tests in worker threads, where create-db's umask test cannot run; the source split and rebuild are
// covered by these files. The base config's global setup starts the PostgreSQL their "on postgres" cases use.
export default mergeConfig(base, defineConfig({ test: { include: ['test/message-source.test.ts', 'test/message-source-split.test.ts', 'test/message-content.test.ts'], reporters: ['default', loadFailures] } }))
