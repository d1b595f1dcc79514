import { Migrator } from 'kysely'
import { afterEach, describe, expect, it } from 'vitest'
import { createDb, createPostgresDb, migrateToLatest, openIssuedAddresses, postgresGuessWindow, purgeIssuedAddresses, recordIssuedAddress, type Db } from '../src/index.js'
import { migrationProviderFor } from '../src/migrations/index.js'
import { ENGINES, freshPostgresDatabase, freshTestDb, migratedPostgresDatabase } from '../src/testing/index.js'

const DAY = 86_400_000
const opened: Db[] = []
afterEach(async () => {
  for (const db of opened.splice(0)) await db.destroy()
})

/** The last migration before the issued-address list, per engine: inboxes made then must be entered by it. */
const BEFORE = { sqlite: '2026_11_24_002101_message_text_head_table', postgres: '2026_11_25_001001_ingest_statement_triggers' } as const

describe.each(ENGINES)('issued addresses on %s', (engine) => {
  it('the migration enters the addresses that already exist, under a secret of the database', async () => {
    const db = engine === 'postgres' ? createPostgresDb({ url: await freshPostgresDatabase('issued') }) : createDb({ path: ':memory:' }).db
    opened.push(db)
    const migrator = new Migrator({ db, provider: migrationProviderFor(engine), allowUnorderedMigrations: true })
    expect((await migrator.migrateTo(BEFORE[engine])).error).toBeUndefined()
    const now = Date.now()
    await db.insertInto('inbox').values({ address: 'before@tempbox.test', local_part: 'before', domain: 'tempbox.test', created_at: now - DAY, expires_at: now - 1 }).execute()
    await migrateToLatest(db)

    const issued = openIssuedAddresses(db)
    expect(await issued.isBlocked('before@tempbox.test', now)).toBe(true)
    expect(await issued.isBlocked('never@tempbox.test', now)).toBe(false)
    // The list holds HMACs only: no address in it, and none without the secret.
    const rows = await db.selectFrom('issued_address').selectAll().execute()
    expect(rows).toHaveLength(1)
    expect(Buffer.from(rows[0]!.hash).equals(await issued.hash('before@tempbox.test'))).toBe(true)
    expect(Buffer.from(rows[0]!.hash).toString('latin1')).not.toContain('before')
    expect(Number(rows[0]!.block_until)).toBe(now - 1 + 365 * DAY)
  })

  it('an address is entered once; a second entry while blocked is refused, one after the block takes over', async () => {
    const db = await freshTestDb(engine)
    opened.push(db)
    const issued = openIssuedAddresses(db)
    const hash = await issued.hash('once@tempbox.test')
    const now = Date.now()
    expect(await recordIssuedAddress(db, { hash, issuedAt: now, blockUntil: now + DAY })).toBe(true)
    expect(await recordIssuedAddress(db, { hash, issuedAt: now + 1000, blockUntil: now + 2 * DAY })).toBe(false)
    expect(await issued.isBlocked('once@tempbox.test', now + DAY - 1)).toBe(true)
    expect(await issued.isBlocked('once@tempbox.test', now + DAY)).toBe(false)
    expect(await recordIssuedAddress(db, { hash, issuedAt: now + DAY, blockUntil: now + 3 * DAY })).toBe(true)
    expect(await purgeIssuedAddresses(db, now + 3 * DAY - 1)).toBe(0)
    expect(await purgeIssuedAddresses(db, now + 3 * DAY)).toBe(1)
    expect(await issued.isBlocked('once@tempbox.test', now)).toBe(false)
  })
})

describe('the SMTP guess window on PostgreSQL', () => {
  it('counts one client across connections, blocks it past the limit for a window, once', async () => {
    const url = await migratedPostgresDatabase('guess')
    const a = createPostgresDb({ url })
    const b = createPostgresDb({ url })
    opened.push(a, b)
    const nodeA = postgresGuessWindow(a, { limit: 3, windowMs: 60_000 })
    const nodeB = postgresGuessWindow(b, { limit: 3, windowMs: 60_000 })
    const client = Buffer.from('client-one')
    const t = 1_000_000
    const counts = await Promise.all([nodeA.count(client, t), nodeB.count(client, t + 1), nodeA.count(client, t + 2)])
    expect(counts.every((c) => c.blockedUntil <= t + 2)).toBe(true)
    const fourth = await nodeB.count(client, t + 3)
    expect(fourth).toEqual({ blockedUntil: t + 3 + 60_000, newlyBlocked: true })
    expect(await nodeA.count(client, t + 4)).toEqual({ blockedUntil: t + 3 + 60_000, newlyBlocked: false })
    expect(await nodeA.blockedUntil(client)).toBe(t + 3 + 60_000)
    expect(await nodeB.blockedUntil(Buffer.from('someone-else'))).toBe(0)
    // After the window the old guesses have aged out: a fresh budget.
    expect((await nodeA.count(client, t + 3 + 60_000)).blockedUntil).toBe(t + 3 + 60_000)
    expect(await nodeB.purge(t + 200_000)).toBe(1)
  })
})
