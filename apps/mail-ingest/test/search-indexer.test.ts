import { afterEach, describe, expect, it, vi } from 'vitest'
import { PAUSE_MS, startSearchIndexer } from '../src/search-indexer.js'

afterEach(() => {
  vi.useRealTimers()
})

/** An engine whose steps give the given results in turn (then an idle step), recording when each step ran. */
function engine(steps: { handled: number; more: boolean }[]) {
  const at: number[] = []
  const storage = {
    engine: 'sqlite' as const,
    indexesSearchApart: true,
    indexSearchStep: async () => {
      at.push(Date.now())
      return steps.shift() ?? { handled: 0, more: false }
    },
  }
  return { storage, at }
}

describe('the search indexer’s pace', () => {
  it('steps again at once after a step that stopped at a limit, PAUSE_MS after any other', async () => {
    vi.useFakeTimers({ now: 0 })
    const full = { handled: 512, more: true }
    const { storage, at } = engine([full, { handled: 40, more: true }, { handled: 5, more: false }, { handled: 1, more: false }])
    const indexer = startSearchIndexer(storage as never)!
    await vi.advanceTimersByTimeAsync(2 + 3 * PAUSE_MS)
    indexer.stop()
    // At a limit twice (the second: few long copies; each next step a timer of 0, which Node runs after 1 ms), then
    // the rest of the backlog, a straggler, and an idle look.
    expect(at).toEqual([0, 1, 2, 2 + PAUSE_MS, 2 + 2 * PAUSE_MS, 2 + 3 * PAUSE_MS])
  })

  it('runs no step once stopped', async () => {
    vi.useFakeTimers({ now: 0 })
    const { storage, at } = engine([])
    const indexer = startSearchIndexer(storage as never)!
    await vi.advanceTimersByTimeAsync(0)
    indexer.stop()
    await vi.advanceTimersByTimeAsync(10 * PAUSE_MS)
    expect(at).toEqual([0])
  })
})
