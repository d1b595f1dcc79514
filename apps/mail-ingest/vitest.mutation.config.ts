import { fileURLToPath } from 'node:url'
import { defineConfig, mergeConfig } from 'vitest/config'
import { BaseSequencer, type TestSpecification } from 'vitest/node'
import base from './vitest.config.js'

// Stryker's sandbox is .stryker-tmp-mail-ingest/sandbox-*/ at the root (tempDirName), as deep as this package, so the tests'
// relative imports of tests/support and this path to the reporter (a test file failing to load is a kill) still resolve.
const loadFailures = fileURLToPath(new URL('../../scripts/stryker/load-failure-reporter.ts', import.meta.url))

// The replies at RCPT and DATA, then the limits' own suites, the shorter first: each mutant reruns the tests that cover
// it and stops at the first failure. Not smtp-server.test.ts nor fault-tags.test.ts: every test there goes through RCPT
// and DATA, so each surviving mutant would rerun them all (4 minutes a mutant with them, on 2 busy cores).
const FILES = ['test/rcpt-data-replies.test.ts', 'test/guess-limit.test.ts', 'test/fair-share.test.ts']

class InOrder extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (spec: TestSpecification) => FILES.findIndex((file) => spec.moduleId.endsWith(file))
    return [...files].sort((a, b) => rank(a) - rank(b))
  }
}

export default mergeConfig(base, defineConfig({ test: { include: FILES, sequence: { sequencer: InOrder }, reporters: ['default', loadFailures] } }))
