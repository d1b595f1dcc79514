import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openStorage, type Storage, type StorageConfig } from '@tempbox/db'
import { ENGINES, freshPostgresDatabase } from '@tempbox/db/testing'
import { afterEach, describe, expect, it } from 'vitest'
import { migrateWhenPending } from '../src/migrate-apart.js'

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function newDatabase(engine: (typeof ENGINES)[number]): Promise<StorageConfig> {
  if (engine === 'postgres') return { path: '', url: await freshPostgresDatabase('pending'), poolSize: 1 }
  const dir = mkdtempSync(join(tmpdir(), 'tempbox-pending-'))
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
  return { path: join(dir, 'tempbox.sqlite') }
}

function opened(database: StorageConfig): Storage {
  const storage = openStorage(database)
  cleanups.push(() => storage.close())
  return storage
}

// Ingest's start (main.ts): the migration thread costs a CPU-second, and the api has usually migrated already (issue 29).
describe.each(ENGINES)('ingest starting on %s', (engine) => {
  it('migrates a new database on the thread apart; a start on the migrated one finds nothing pending, starts no thread', async () => {
    const database = await newDatabase(engine)
    const first = opened(database)
    expect(await migrateWhenPending(first.db, database)).toBe(true)
    const tables = (await first.db.introspection.getTables()).map((t) => t.name)
    expect(tables).toEqual(expect.arrayContaining(['inbox', 'message', 'message_content', 'delivery_log']))
    expect(await migrateWhenPending(opened(database).db, database)).toBe(false)
  })
})
