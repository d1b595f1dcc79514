import { sql } from 'kysely'
import type { Db } from '../create-db.js'
import { engineOf } from '../postgres-db.js'
import { POSTGRES_MIGRATION_NAMES, SQLITE_MIGRATION_NAMES } from './names.js'

/**
 * Whether any of the db's engine's migrations has not run, read from Kysely's own table without loading a migration.
 * A table that is missing or cannot be read counts as pending: migrating then creates it or reports why it fails.
 */
export async function hasPendingMigrations(db: Db): Promise<boolean> {
  const ran = await ranMigrations(db)
  return ran === null || namesFor(db).some((name) => !ran.has(name))
}

/**
 * Whether the database ran exactly this code's migrations: none pending and none this code does not know (which the
 * migrator refuses). Then there is nothing to migrate, and a start need not run the migrator, whose check of its own
 * tables reads the whole catalog.
 */
export async function ranExactlyOurMigrations(db: Db): Promise<boolean> {
  const ran = await ranMigrations(db)
  const names = namesFor(db)
  return ran !== null && ran.size === names.length && names.every((name) => ran.has(name))
}

function namesFor(db: Db): readonly string[] {
  return engineOf(db) === 'postgres' ? POSTGRES_MIGRATION_NAMES : SQLITE_MIGRATION_NAMES
}

/** The names in Kysely's migration table; null when it is missing or cannot be read. */
async function ranMigrations(db: Db): Promise<Set<string> | null> {
  try {
    const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(db)
    return new Set(rows.map((row) => row.name))
  } catch {
    return null
  }
}
