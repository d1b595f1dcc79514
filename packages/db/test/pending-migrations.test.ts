import { sql } from 'kysely'
import { afterEach, describe, expect, it } from 'vitest'
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
