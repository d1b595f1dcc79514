import { createPostgresDb, type Db } from '@tempbox/db'
import { migratedPostgresDatabase } from '@tempbox/db/testing'
import { sql } from 'kysely'
import { afterAll, beforeEach } from 'vitest'

/** The PostgreSQL-only tables of the shared state, emptied before each test. */
const SHARED_TABLES = ['address_limit_client', 'address_limit_slot', 'window_counter', 'visitor_salt']

/**
 * A migrated database of this test file's own on the run's PostgreSQL (vitest's `postgres` project), whose shared-state
 * tables each test starts with empty. `pools(n)` opens n Kysely pools on it: n API nodes sharing it. `database()` makes
 * another, for a test that needs a whole database of its own.
 */
export function usePostgres() {
  let shared: { url: string; admin: Db } | null = null
  const opened: Db[] = []
  beforeEach(async () => {
    if (shared) await sql.raw(`TRUNCATE ${SHARED_TABLES.join(', ')}`).execute(shared.admin)
  })
  afterAll(async () => {
    await Promise.all([...opened, ...(shared ? [shared.admin] : [])].map((db) => db.destroy()))
  })
  return {
    /** A new migrated database (a copy of the run's template); its URL. */
    database(): Promise<string> {
      return migratedPostgresDatabase('shared')
    },
    async pools(n: number, url?: string): Promise<Db[]> {
      if (!url && !shared) {
        const at = await this.database()
        shared = { url: at, admin: createPostgresDb({ url: at }) }
      }
      const at = url ?? shared!.url
      const pools = Array.from({ length: n }, () => createPostgresDb({ url: at }))
      opened.push(...pools)
      return pools
    },
  }
}

/** Resolves once `condition` holds, checking every 20 ms; fails after `timeoutMs` with `what`. */
export async function waitFor(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}
