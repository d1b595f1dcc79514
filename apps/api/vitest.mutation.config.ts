import { defineConfig, mergeConfig } from 'vitest/config'
import base from './vitest.config.js'

// Stryker reruns the tests that cover a mutant once per mutant: only the files that exercise the address rules and the
// per-IP limits, so the initial run does not start every Fastify suite in the api.
export default mergeConfig(base, defineConfig({ test: { include: ['test/email-generate.test.ts', 'test/ip-limits.test.ts'] } }))
