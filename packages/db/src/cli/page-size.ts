import { existsSync } from 'node:fs'
import { createDb } from '../create-db.js'
import { resolveDatabasePath } from '../database-path.js'
import { convertPageSize } from '../page-size.js'

const path = resolveDatabasePath(process.env.DATABASE_PATH)
if (!existsSync(path)) {
  // Opening it would create an empty database, which already gets the new page size.
  console.error(`[db] no database at ${path} (set DATABASE_PATH)`)
  process.exit(1)
}
// No Kysely here: only the better-sqlite3 handle, closed below.
const { sqlite } = createDb({ path })
try {
  const result = convertPageSize(sqlite)
  console.log(result.changed ? `[db] ${path}: ${result.from} → ${result.to}-byte pages` : `[db] ${path} already uses ${result.pageSize}-byte pages`)
} catch (error) {
  console.error(`[db] ${path}: ${error instanceof Error ? error.message : String(error)}`)
  process.exitCode = 1
} finally {
  sqlite.close()
}
