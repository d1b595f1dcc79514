import { defineConfig, mergeConfig } from 'vitest/config'
import { BaseSequencer, type TestSpecification } from 'vitest/node'
import base from './vitest.config.js'

// Stryker reruns the tests that cover a mutant once per mutant, stopping at the first failure: only the files that
// exercise the address rules and the per-IP limits, the fast unit tests first so that a mutant they kill never starts
// the Fastify apps of email-generate.test.ts (vitest would otherwise run its slowest files first).
const FILES = ['test/address.test.ts', 'test/ip-limits.test.ts', 'test/email-generate.test.ts']

class InOrder extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (spec: TestSpecification) => FILES.findIndex((file) => spec.moduleId.endsWith(file))
    return [...files].sort((a, b) => rank(a) - rank(b))
  }
}

export default mergeConfig(base, defineConfig({ test: { include: FILES, sequence: { sequencer: InOrder } } }))
