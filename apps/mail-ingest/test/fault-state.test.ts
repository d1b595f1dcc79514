import type { SMTPServerSession } from 'smtp-server'
import { describe, expect, it } from 'vitest'
import { memoryFaultState } from '../src/fault-state.js'

const from = (ip: string) => ({ remoteAddress: ip }) as SMTPServerSession

describe('the in-memory fault-tag state (one ingest on SQLite)', () => {
  it('counts tries per client and key, forgets an entry its TTL after the last try, and stays within its caps', async () => {
    const state = memoryFaultState({ faultStateTtlMs: 60_000, faultStateMaxPerClient: 2, faultStateMaxEntries: 3 })
    const a = from('192.0.2.1')
    expect(await state.tryAt(a, ['greylist', 's', 'r'], 0)).toEqual({ firstAt: 0, tries: 1 })
    expect(await state.tryAt(a, ['greylist', 's', 'r'], 59_999)).toEqual({ firstAt: 0, tries: 2 })
    // Another client's try of the same pair is its own.
    expect(await state.tryAt(from('192.0.2.2'), ['greylist', 's', 'r'], 60_000)).toEqual({ firstAt: 60_000, tries: 1 })
    expect(await state.tryAt(a, ['greylist', 's', 'r'], 59_999 + 60_000)).toEqual({ firstAt: 119_999, tries: 1 })

    // Client a at its cap of 2: a third key pushes out its least recently tried.
    await state.tryAt(a, ['k2'], 120_000)
    await state.tryAt(a, ['k3'], 120_001)
    expect((await state.tryAt(a, ['greylist', 's', 'r'], 120_002)).tries).toBe(1)
    expect((await state.tryAt(a, ['k3'], 120_003)).tries).toBe(2)
    // Total cap of 3 (a's two and the other client's one): a new client pushes out the least recently tried of all.
    await state.tryAt(from('192.0.2.3'), ['x'], 120_004)
    expect((await state.tryAt(from('192.0.2.2'), ['greylist', 's', 'r'], 120_005)).tries).toBe(1)
  })
})
