import { fileURLToPath } from 'node:url'
import { defineConfig, mergeConfig } from 'vitest/config'
import { BaseSequencer, type TestSpecification } from 'vitest/node'
import base from './vitest.config.js'

// Runs only in Stryker's sandbox (<package>/.stryker-tmp/sandbox-*/), four levels under the repository root: the reporter
// there counts a test file that fails to load as a failed test (a kill), not as no tests.
const loadFailures = fileURLToPath(new URL('../../../../scripts/stryker/load-failure-reporter.ts', import.meta.url))

// Stryker reruns the tests that cover a mutant once per mutant, stopping at the first failure: only the files that
// exercise the address rules and the per-IP limits, the fast unit tests first so that a mutant they kill never starts
// the Fastify apps of email-generate.test.ts (vitest would otherwise run its slowest files first). Then which hosts a
// webhook may reach, which tokens and sessions are still good (auth plugin, token versions, renewal) and the signature.
const FILES = [
  'test/address.test.ts', 'test/ip-limits.test.ts', 'test/webhook-url.test.ts', 'test/webhook-target.test.ts', 'test/auth.test.ts',
  'test/sessions.test.ts', 'test/refresh-sessions.test.ts', 'test/email-generate.test.ts', 'test/webhook-signature.test.ts',
]

class InOrder extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (spec: TestSpecification) => FILES.findIndex((file) => spec.moduleId.endsWith(file))
    return [...files].sort((a, b) => rank(a) - rank(b))
  }
}

const merged = mergeConfig(base, defineConfig({ test: { include: FILES, sequence: { sequencer: InOrder }, reporters: ['default', loadFailures] } }))
// The SQLite project alone: the base's PostgreSQL project would run its own list of suites again on every mutant, and
// the mutated code (address rules, webhook targets, the signature, token checks) decides above the queries, the same on
// both engines; the one query mutated (raising the token version) is built by Kysely alike for both.
export default { ...merged, test: { ...merged.test, projects: [{ extends: true, test: { name: 'sqlite' } }] } }
