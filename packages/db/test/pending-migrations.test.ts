import { sql } from 'kysely'
import { afterEach, describe, expect, it } from 'vitest'
import pg from 'pg'
import { createDb, createPostgresDb, hasPendingMigrations, migrateToLatest, type Db } from '../src/index.js'
import { ENGINES, freshPostgresDatabase, type TestEngine } from '../src/testing/index.js'

const opened: Db[] = []
afterEach(async () => {
  for (const db of opened.splice(0)) await db.destroy()
})

async function emptyDb(engine: TestEngine): Promise<Db> {
  const db = engine === 'postgres' ? createPostgresDb({ url: await freshPostgresDatabase('pending'), poolSize: 1 }) : createDb({ path: ':memory:' }).db
  opened.push(db)
  return db
}

// Ingest skips its migration thread when nothing is pending (issue 29): the answer must match what migrating would do.
describe.each(ENGINES)('hasPendingMigrations on %s', (engine) => {
  it('is true for a database never migrated (no migration table)', async () => {
    expect(await hasPendingMigrations(await emptyDb(engine))).toBe(true)
  })

  it('is false once migrated to the latest schema', async () => {
    const db = await emptyDb(engine)
    await migrateToLatest(db)
    expect(await hasPendingMigrations(db)).toBe(false)
  })

  it('is true when one migration, not the last, has not run', async () => {
    const db = await emptyDb(engine)
    await migrateToLatest(db)
    await sql`delete from kysely_migration where name = ${'2026_11_28_000201_issued_addresses'}`.execute(db)
    expect(await hasPendingMigrations(db)).toBe(true)
  })
})

describe.each(ENGINES)('migrateToLatest on %s', (engine) => {
  it('still refuses a database that ran a migration this code does not know', async () => {
    const db = await emptyDb(engine)
    await migrateToLatest(db)
    await sql`insert into kysely_migration (name, timestamp) values (${'2099_01_01_000001_from_a_newer_release'}, ${new Date().toISOString()})`.execute(db)
    await expect(migrateToLatest(db)).rejects.toThrow(/2099_01_01_000001_from_a_newer_release is missing/)
  })

  it('runs the one migration a database lacks, and then finds nothing to do', async () => {
    const db = await emptyDb(engine)
    await migrateToLatest(db)
    await sql`delete from kysely_migration where name = ${'2026_11_28_000501_delivery_log'}`.execute(db)
    // What that migration's own `down` undoes.
    await sql`alter table message drop column rcpt_tag`.execute(db)
    await sql`drop table delivery_log`.execute(db)
    await migrateToLatest(db)
    expect(await db.selectFrom('delivery_log').select('id').execute()).toEqual([])
    expect(await hasPendingMigrations(db)).toBe(false)
  })
})

describe('migrateToLatest on PostgreSQL', () => {
  it('starts a node on an up-to-date database while another node holds the migration lock', async () => {
    const url = await freshPostgresDatabase('lock')
    const db = createPostgresDb({ url, poolSize: 1 })
    opened.push(db)
    await migrateToLatest(db)
    // Kysely's own lock (its PostgreSQL adapter): a node migrating holds it for as long as its migrations take.
    const other = new pg.Client({ connectionString: url })
    await other.connect()
    try {
      await other.query('select pg_advisory_lock(3853314791062309107)')
      await migrateToLatest(db)
      expect(await hasPendingMigrations(db)).toBe(false)
    } finally {
      await other.end()
    }
  })
})
