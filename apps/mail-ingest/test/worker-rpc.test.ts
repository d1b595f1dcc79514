import { spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { MessageChannel, receiveMessageOnPort } from 'node:worker_threads'
import { describe, expect, it } from 'vitest'
import type { ResourceLimits } from 'node:worker_threads'
import { loadConfig } from '../src/config.js'
import { movableMemory, removeBundlesOfEndedProcesses, startWorker } from '../src/worker-rpc.js'

describe('movableMemory', () => {
  it('moves buffers that own all of their memory, each once', () => {
    const message = Buffer.allocUnsafeSlow(100 * 1024)
    const text = Buffer.allocUnsafeSlow(10)
    expect(movableMemory([message, text, message])).toEqual([message.buffer, text.buffer])
  })

  it('leaves pooled and sliced buffers alone: their memory is shared with others', () => {
    const pooled = Buffer.from('a small attachment')
    expect(pooled.buffer.byteLength).toBeGreaterThan(pooled.length)
    const slice = Buffer.allocUnsafeSlow(1024).subarray(0, 100)
    expect(movableMemory([pooled, slice])).toEqual([])
  })

  it('hands a view of a moved buffer over without copying, and the sender can no longer read it', () => {
    const received = Buffer.allocUnsafeSlow(100 * 1024).fill(0x61)
    const head = received.subarray(0, 200)
    const { port1, port2 } = new MessageChannel()
    port1.postMessage({ head }, movableMemory([received]))
    const { head: arrived } = receiveMessageOnPort(port2)!.message as { head: Uint8Array }
    port1.close()
    expect(Buffer.from(arrived.buffer, arrived.byteOffset, arrived.byteLength).toString()).toBe('a'.repeat(200))
    expect(received.buffer.byteLength).toBe(0)
  })
})

describe('startWorker', () => {
  it('runs the thread with the young generation INGEST_WORKER_YOUNG_GENERATION_MB names (16 MB unless set)', async () => {
    expect(loadConfig({ MAIL_DOMAINS: 'x.test' }).workerYoungGenerationMb).toBe(16)
    const youngGenerationMb = loadConfig({ MAIL_DOMAINS: 'x.test', INGEST_WORKER_YOUNG_GENERATION_MB: '6' }).workerYoungGenerationMb
    const limits = await new Promise<ResourceLimits>((resolve, reject) => {
      const started = startWorker(new URL('./fixtures/resource-limits-worker.ts', import.meta.url), {
        youngGenerationMb,
        onMessage: (message) => {
          resolve(message as ResourceLimits)
          void started.stop()
        },
        onCrash: reject,
      })
    })
    expect(limits.maxYoungGenerationSizeMb).toBe(6)
  })

  it('gives the thread off the path to 250 its own, smaller young generation (INGEST_CHECK_WORKER_YOUNG_GENERATION_MB, 8 MB)', () => {
    const defaults = loadConfig({ MAIL_DOMAINS: 'x.test' })
    expect([defaults.workerYoungGenerationMb, defaults.checkWorkerYoungGenerationMb]).toEqual([16, 8])
    const set = loadConfig({ MAIL_DOMAINS: 'x.test', INGEST_CHECK_WORKER_YOUNG_GENERATION_MB: '2' })
    expect([set.workerYoungGenerationMb, set.checkWorkerYoungGenerationMb]).toEqual([16, 2])
    expect(() => loadConfig({ MAIL_DOMAINS: 'x.test', INGEST_CHECK_WORKER_YOUNG_GENERATION_MB: '0' })).toThrow(/INGEST_CHECK_WORKER_YOUNG_GENERATION_MB/)
  })

  it('runs the thread under the old-generation limit INGEST_WORKER_OLD_GENERATION_MB names (1024 MB unless set, not V8\'s 4 GB)', async () => {
    expect(loadConfig({ MAIL_DOMAINS: 'x.test' }).workerOldGenerationMb).toBe(1024)
    expect(() => loadConfig({ MAIL_DOMAINS: 'x.test', INGEST_WORKER_OLD_GENERATION_MB: '32' })).toThrow('INGEST_WORKER_OLD_GENERATION_MB must be an integer ≥ 64 (got "32")')
    const { workerOldGenerationMb, workerYoungGenerationMb } = loadConfig({ MAIL_DOMAINS: 'x.test', INGEST_WORKER_OLD_GENERATION_MB: '300' })
    const limits = await new Promise<ResourceLimits>((resolve, reject) => {
      const started = startWorker(new URL('./fixtures/resource-limits-worker.ts', import.meta.url), {
        youngGenerationMb: workerYoungGenerationMb,
        oldGenerationMb: workerOldGenerationMb,
        onMessage: (message) => {
          resolve(message as ResourceLimits)
          void started.stop()
        },
        onCrash: reject,
      })
    })
    expect([limits.maxOldGenerationSizeMb, limits.maxYoungGenerationSizeMb]).toEqual([300, 16])
  })
})

describe('worker bundles made from source', () => {
  it('are made again once a worker\'s source changed, as in a watching test run', async () => {
    const source = join(import.meta.dirname, 'fixtures', `edited-worker-${process.pid}.ts`)
    const answer = async () =>
      new Promise<unknown>((resolve, reject) => {
        const started = startWorker(pathToFileURL(source), {
          onMessage: (message) => {
            resolve(message)
            void started.stop()
          },
          onCrash: reject,
        })
      })
    const write = (text: string, at: number) => {
      writeFileSync(source, `import { parentPort } from 'node:worker_threads'\nimport { signalReady } from '../../src/worker-rpc.js'\nsignalReady()\nparentPort!.postMessage('${text}')\n`)
      utimesSync(source, at, at)
    }
    try {
      write('first', 1_000_000)
      expect(await answer()).toBe('first')
      expect(await answer()).toBe('first')
      write('second', 2_000_000)
      expect(await answer()).toBe('second')
    } finally {
      rmSync(source, { force: true })
    }
  })

  it('are removed once the process that made them has ended, and kept while it runs', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tempbox-worker-bundles-'))
    const ended = spawn(process.execPath, ['-e', ''])
    await new Promise((resolve) => ended.once('exit', resolve))
    const names = [`.tempbox-worker-parse-worker-${ended.pid}-0.mjs`, `.tempbox-worker-store-worker-${ended.pid}-1.mjs.tmp`, `.tempbox-worker-store-worker-${process.pid}-0.mjs`, 'unrelated.mjs']
    for (const name of names) writeFileSync(join(dir, name), '')
    removeBundlesOfEndedProcesses(dir)
    expect(readdirSync(dir).sort()).toEqual([`.tempbox-worker-store-worker-${process.pid}-0.mjs`, 'unrelated.mjs'])
    rmSync(dir, { recursive: true, force: true })
  })
})
