import type { Worker } from 'node:worker_threads'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { parseWorkers } from '../src/parse-workers.js'

afterEach(() => vi.useRealTimers())

/** Stand-ins for worker threads: what was started and what was stopped. */
function fakeStarts() {
  const started: string[] = []
  const stopped: string[] = []
  const start = () => {
    const name = `parser ${started.length + 1}`
    started.push(name)
    return { worker: { name } as unknown as Worker, stop: async () => void stopped.push(name) }
  }
  return { started, stopped, start }
}

describe('parse workers started on demand', () => {
  it('starts none until a message needs one, then the least busy, each once', () => {
    const { started, start } = fakeStarts()
    const workers = parseWorkers(2, start, 1_000)
    expect([workers.running(), workers.wanted()]).toEqual([false, false])
    expect(started).toEqual([])
    const first = workers.take(true)
    const second = workers.take(true)
    expect([first.index, second.index]).toEqual([0, 1])
    workers.settled(0)
    expect(workers.take(false).index).toBe(0)
    expect(started).toEqual(['parser 1', 'parser 2'])
    expect([workers.running(), workers.wanted()]).toEqual([true, true])
  })

  it('is wanted only while mail that needs it keeps coming: small texts given to it do not keep it', () => {
    vi.useFakeTimers()
    const { stopped, start } = fakeStarts()
    const workers = parseWorkers(1, start, 1_000)
    workers.take(true)
    workers.settled(0)
    for (let i = 0; i < 5; i++) {
      vi.advanceTimersByTime(300)
      if (workers.wanted()) workers.settled(workers.take(false).index)
    }
    expect(workers.wanted()).toBe(false)
    expect(stopped).toEqual(['parser 1'])
    expect(workers.running()).toBe(false)
  })

  it('stops a worker no longer wanted once nothing is in flight, never one still parsing, and starts it again', () => {
    vi.useFakeTimers()
    const { started, stopped, start } = fakeStarts()
    const workers = parseWorkers(1, start, 1_000)
    workers.take(true)
    vi.advanceTimersByTime(5_000)
    // Still holding its message: it stays, though no longer wanted.
    expect(stopped).toEqual([])
    expect([workers.running(), workers.wanted()]).toEqual([true, false])
    workers.settled(0)
    vi.advanceTimersByTime(1_000)
    expect(stopped).toEqual(['parser 1'])
    expect(workers.running()).toBe(false)
    workers.take(true)
    expect(started).toEqual(['parser 1', 'parser 2'])
  })

  it('stops every running worker when the pipeline closes', async () => {
    const { stopped, start } = fakeStarts()
    const workers = parseWorkers(2, start, 1_000)
    workers.take(true)
    workers.take(true)
    await workers.stop()
    expect(stopped).toEqual(['parser 1', 'parser 2'])
    expect(workers.running()).toBe(false)
  })
})
