import { afterEach, describe, expect, it } from 'vitest'
import { createPostgresDb, postgresFaultState, type Db } from '../src/index.js'
import { migratedPostgresDatabase } from '../src/testing/index.js'

const opened: Db[] = []
afterEach(async () => {
  for (const db of opened.splice(0)) await db.destroy()
})

describe('the SMTP fault-tag state on PostgreSQL', () => {
  it('counts tries of one key across nodes, starts over once expired, keeps a client within its cap', async () => {
    const url = await migratedPostgresDatabase('faults')
    const a = createPostgresDb({ url })
    const b = createPostgresDb({ url })
    opened.push(a, b)
    const nodeA = postgresFaultState(a, { ttlMs: 60_000, maxPerClient: 2 })
    const nodeB = postgresFaultState(b, { ttlMs: 60_000, maxPerClient: 2 })
    const client = Buffer.from('client')
    const key = Buffer.from('greylist sender recipient')
    const t = 1_000_000
    expect(await nodeA.tryAt(key, client, t)).toEqual({ firstAt: t, tries: 1 })
    expect(await nodeB.tryAt(key, client, t + 5)).toEqual({ firstAt: t, tries: 2 })
    // 60 s after the last try the entry is gone for the count: a fresh first try.
    expect(await nodeA.tryAt(key, client, t + 5 + 60_000)).toEqual({ firstAt: t + 5 + 60_000, tries: 1 })

    // A third key of the same client pushes out its least recently tried one.
    await nodeA.tryAt(Buffer.from('k2'), client, t + 70_000)
    await nodeA.tryAt(Buffer.from('k3'), client, t + 80_000)
    expect((await nodeB.tryAt(key, client, t + 90_000)).tries).toBe(1)
    await nodeA.tryAt(Buffer.from('other'), Buffer.from('someone-else'), t + 90_000)
    // Left: k3 (until t + 140 s), the key and the other client's (t + 150 s); k2 was pushed out by the key's return.
    expect(await nodeB.purge(t + 139_999)).toBe(0)
    expect(await nodeB.purge(t + 150_000)).toBe(3)
  })
})
