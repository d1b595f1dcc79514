import { sql } from 'kysely'
import type { Db } from '../create-db.js'
import { engineOf } from '../postgres-db.js'

/**
 * Makes the database refuse every INSERT or UPDATE of `table` from now on, as a read-only or failing store would, on
 * every connection to it. Returns what takes the refusal back (for a database shared by later tests).
 */
export async function refuseWrites(db: Db, table: 'message_content' | 'message_text_head', action: 'insert' | 'update'): Promise<() => Promise<void>> {
  const name = sql.raw(`refuse_${action}_${table}`)
  const event = sql.raw(action.toUpperCase())
  if (engineOf(db) === 'postgres') {
    await sql`CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused'; END $$`.execute(db)
    await sql`CREATE TRIGGER ${name} BEFORE ${event} ON ${sql.table(table)} FOR EACH ROW EXECUTE FUNCTION ${name}()`.execute(db)
    return async () => {
      await sql`DROP TRIGGER ${name} ON ${sql.table(table)}`.execute(db)
      await sql`DROP FUNCTION ${name}()`.execute(db)
    }
  }
  await sql`CREATE TRIGGER ${name} BEFORE ${event} ON ${sql.table(table)} BEGIN SELECT RAISE(ABORT, 'refused'); END`.execute(db)
  return async () => {
    await sql`DROP TRIGGER ${name}`.execute(db)
  }
}
