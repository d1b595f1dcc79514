import { sql } from 'kysely'
import type { Db } from '../create-db.js'
import { engineOf } from '../postgres-db.js'
import { POSTGRES_MIGRATION_NAMES, SQLITE_MIGRATION_NAMES } from './names.js'

/**
 * Whether any of the db's engine's migrations has not run, read from Kysely's own table without loading a migration.
 * A table that is missing or cannot be read counts as pending: migrating then creates it or reports why it fails.
 */
export async function hasPendingMigrations(db: Db): Promise<boolean> {
  const names: readonly string[] = engineOf(db) === 'postgres' ? POSTGRES_MIGRATION_NAMES : SQLITE_MIGRATION_NAMES
  let ran: Set<string>
  try {
    const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(db)
    ran = new Set(rows.map((row) => row.name))
  } catch {
    return true
  }
  return names.some((name) => !ran.has(name))
}
