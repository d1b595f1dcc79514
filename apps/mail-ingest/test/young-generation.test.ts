import { execFileSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { semiSpaceFlag, youngGenerationWarnings } from '../src/young-generation.js'

describe('the young generation set for every thread by node itself', () => {
  it('finds --max-semi-space-size on the command line, in either spelling', () => {
    expect(semiSpaceFlag(['--conditions=tempbox-compiled', '--max-semi-space-size=4'])).toBe('--max-semi-space-size=4')
    expect(semiSpaceFlag(['--max_semi_space_size', '8'])).toBe('--max-semi-space-size=8')
    expect(semiSpaceFlag(['--max-old-space-size=512', '--max-semi-space-size-x=1'])).toBeNull()
  })

  it('warns that a worker young-generation setting has no effect under that flag, and only then', () => {
    const env = { INGEST_WORKER_YOUNG_GENERATION_MB: '32', INGEST_CHECK_WORKER_YOUNG_GENERATION_MB: ' ', MAIL_DOMAINS: 'x.test' }
    expect(youngGenerationWarnings(env, '--max-semi-space-size=4')).toEqual([
      "[config] INGEST_WORKER_YOUNG_GENERATION_MB has no effect: node was started with --max-semi-space-size=4, which V8 applies to every thread's young generation",
    ])
    expect(youngGenerationWarnings(env, null)).toEqual([])
    expect(youngGenerationWarnings({ MAIL_DOMAINS: 'x.test' }, '--max-semi-space-size=4')).toEqual([])
  })

  it('is what V8 does: the flag sizes a worker started with a larger or smaller young-generation limit', () => {
    // Each worker allocates enough short-lived objects to grow its new space to the most it may have.
    const script = `
      const { Worker } = require('node:worker_threads')
      const body = "let a = []; for (let i = 0; i < 3e6; i++) { a.push({ i }); if (a.length > 5000) a = [] }" +
        "require('node:worker_threads').parentPort.postMessage(require('node:v8').getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size)"
      Promise.all([2, 32].map((mb) => new Promise((resolve) => {
        const w = new Worker(body, { eval: true, resourceLimits: { maxYoungGenerationSizeMb: mb } })
        w.once('message', (bytes) => { resolve(bytes / 1048576); void w.terminate() })
      }))).then((sizes) => console.log(JSON.stringify(sizes)))`
    const newSpaceMb = JSON.parse(execFileSync(process.execPath, ['--max-semi-space-size=4', '-e', script], { encoding: 'utf8' })) as number[]
    // Two 4 MB semi-spaces each: the 2 MB limit raised, the 32 MB one capped.
    expect(newSpaceMb).toEqual([8, 8])
  })
})
