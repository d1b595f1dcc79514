import { afterEach, describe, expect, it, vi } from 'vitest'
import { BATCH_MS, IDLE_MS, startSearchIndexer, STEP_ROWS } from '../src/search-indexer.js'

afterEach(() => {
  vi.useRealTimers()
})

/** An engine whose steps handle the given counts in turn (then 0), recording when each step ran. */
function engine(counts: number[]) {
  const at: number[] = []
  const storage = {
    engine: 'sqlite' as const,
    indexesSearchApart: true,
    indexSearchStep: async () => {
      at.push(Date.now())
      return counts.shift() ?? 0
    },
  }
  return { storage, at }
}

describe('the search indexer’s pace', () => {
  it('steps again at once after a full step, BATCH_MS after a small one, IDLE_MS after an idle one', async () => {
    vi.useFakeTimers({ now: 0 })
    const { storage, at } = engine([STEP_ROWS, 300, 5, 1, 0])
    const indexer = startSearchIndexer(storage as never)!
    await vi.advanceTimersByTimeAsync(2 + 2 * BATCH_MS + IDLE_MS)
    indexer.stop()
    // Full, full (each next step a timer of 0, which Node runs after 1 ms), small, small, idle, then the next look.
    expect(at).toEqual([0, 1, 2, 2 + BATCH_MS, 2 + 2 * BATCH_MS, 2 + 2 * BATCH_MS + IDLE_MS])
  })

  it('runs no step once stopped', async () => {
    vi.useFakeTimers({ now: 0 })
    const { storage, at } = engine([])
    const indexer = startSearchIndexer(storage as never)!
    await vi.advanceTimersByTimeAsync(0)
    indexer.stop()
    await vi.advanceTimersByTimeAsync(10 * IDLE_MS)
    expect(at).toEqual([0])
  })
})
