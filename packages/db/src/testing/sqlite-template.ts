import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { createDb, migrateToLatest, PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../create-db.js'

/**
 * This test process's migrated SQLite file, made on first use and kept in memory: its folder is removed at once. At
 * process exit it stayed behind, as vitest ends its workers with a signal, which skips 'exit'.
 */
let template: Promise<Buffer> | undefined

function migratedTemplate(): Promise<Buffer> {
  template ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tempbox-template-'))
    try {
      const file = join(dir, 'tempbox.sqlite')
      const { db } = createDb({ path: file })
      // Closing the only connection checkpoints the WAL into the file and removes it: the file alone is the database.
      await migrateToLatest(db).finally(() => db.destroy())
      if (existsSync(`${file}-wal`)) throw new Error(`[db] the migrated template ${file} kept its WAL after closing`)
      return readFileSync(file)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })()
  return template
}

/**
 * Puts a SQLite file already migrated to the latest schema at `path`, as the SQLite counterpart of
 * migratedPostgresDatabase: a copy of one file migrated once per test process. Migrating a fresh file is most of
 * what starting a test app costs (its DDL, one fsync per migration); an app opening the copy finds nothing to run.
 */
export async function migratedSqliteFile(path: string): Promise<void> {
  const source = await migratedTemplate()
  mkdirSync(dirname(path), { recursive: true, mode: PRIVATE_DIR_MODE })
  writeFileSync(path, source, { mode: PRIVATE_FILE_MODE })
}
