import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDb, createPostgresDb, migrateToLatest, type Db } from '../src/index.js'
import { freshPostgresDatabase } from '../src/testing/index.js'

/**
 * Both engines' migrations must end in the same schema: same tables, columns (name, nullability, type class), primary
 * keys, unique constraints, foreign keys, indexes (with their partial-ness) and triggers. A migration added for one
 * engine only fails here until the other has its counterpart — except the triggers listed in POSTGRES_ONLY_TRIGGERS
 * and the tables listed in POSTGRES_ONLY_TABLES.
 */

/**
 * Change notification, which only PostgreSQL does with triggers (NOTIFY on commit; deletions: migration
 * 2026_11_24_003002, read state and inbox updates: 2026_11_24_006001): SQLite's readers notice commits through
 * `PRAGMA data_version`, and its deleters and readers are API processes that tell each other.
 */
const POSTGRES_ONLY_TRIGGERS = [
  'inbox.inbox_deleted_notify', 'inbox.inbox_updated_notify', 'message.message_deleted_notify', 'message.message_read_notify',
]

interface Schema {
  columns: string[]
  keys: string[]
  indexes: string[]
  triggers: string[]
}

function typeClass(type: string): string {
  const t = type.toLowerCase()
  if (/int/.test(t)) return 'integer'
  if (t === 'text' || /char/.test(t)) return 'text'
  if (t === 'blob' || t === 'bytea') return 'blob'
  return t
}

async function sqliteSchema(db: Db): Promise<Schema> {
  const q = async <T>(query: string) => (await sql.raw<T>(query).execute(db)).rows
  const tables = await q<{ name: string }>(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'kysely_%'",
  )
  const schema: Schema = { columns: [], keys: [], indexes: [], triggers: [] }
  for (const { name: table } of tables) {
    const cols = await q<{ name: string; type: string; notnull: number; pk: number }>(`PRAGMA table_info("${table}")`)
    for (const c of cols) schema.columns.push(`${table}.${c.name} ${typeClass(c.type)} ${c.notnull || c.pk ? 'not null' : 'null'}`)
    const pk = cols.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk).map((c) => c.name)
    schema.keys.push(`${table} primary key (${pk.join(', ')})`)
    for (const fk of await q<{ table: string; from: string; to: string; on_delete: string }>(`PRAGMA foreign_key_list("${table}")`)) {
      schema.keys.push(`${table}.${fk.from} references ${fk.table}.${fk.to} on delete ${fk.on_delete.toLowerCase()}`)
    }
    for (const index of await q<{ name: string; unique: number; origin: string; partial: number }>(`PRAGMA index_list("${table}")`)) {
      if (index.origin === 'pk') continue
      const cols = (await q<{ name: string }>(`PRAGMA index_info("${index.name}")`)).map((c) => c.name).join(', ')
      if (index.origin === 'u') schema.keys.push(`${table} unique (${cols})`)
      else schema.indexes.push(`${table}.${index.name} (${cols})${index.unique ? ' unique' : ''}${index.partial ? ' partial' : ''}`)
    }
  }
  schema.triggers = (await q<{ name: string; tbl_name: string }>("SELECT name, tbl_name FROM sqlite_master WHERE type = 'trigger'")).map(
    (t) => `${t.tbl_name}.${t.name}`,
  )
  return schema
}

/**
 * Tables only PostgreSQL has, on purpose: the state several API nodes share (per-client address limits, fixed-window
 * counters, the visitor salt of the day; migration 2026_11_24_004001; the SMTP guess window, 2026_11_28_000202). On SQLite one host serves and that state lives
 * in the API's memory (its cluster primary's with several processes), so there is nothing to compare them with.
 * Listed by name, so any other table on one engine only still fails.
 */
const POSTGRES_ONLY_TABLES = ['address_limit_client', 'address_limit_slot', 'window_counter', 'visitor_salt', 'smtp_guess_client', 'smtp_fault_state']

/**
 * Search's trigram index is each engine's own kind: on PostgreSQL one pg_trgm GIN index (migration
 * 2026_11_28_000601); on SQLite an FTS5 table in a file of its own (2026_11_28_000701), which leaves in the database
 * only the queue of deleted contents its indexer takes out of it, filled by a trigger. Named here, so any other
 * difference fails.
 */
const SQLITE_SEARCH_QUEUE = 'message_search_unindexed'
const SQLITE_SEARCH_TRIGGERS = ['message_search.message_search_deleted']
const POSTGRES_SEARCH_INDEX = 'message_search.message_search_trgm (subject, from_name, from_address, body)'
const notSqliteSearchIndex = (line: string) => line.split(/[ .]/, 1)[0] !== SQLITE_SEARCH_QUEUE && !SQLITE_SEARCH_TRIGGERS.includes(line)

/** Drops what belongs to a PostgreSQL-only table from a schema line (`table.column …`, `table primary key …`). */
const onBothEngines = (line: string) => !POSTGRES_ONLY_TABLES.includes(line.split(/[ .]/, 1)[0]!)

async function postgresSchema(db: Db): Promise<Schema> {
  const q = async <T>(query: string) => (await sql.raw<T>(query).execute(db)).rows
  const schema: Schema = { columns: [], keys: [], indexes: [], triggers: [] }
  const cols = await q<{ table_name: string; column_name: string; data_type: string; is_nullable: string }>(`
    SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns
    WHERE table_schema = 'public' AND table_name NOT LIKE 'kysely_%'`)
  for (const c of cols) schema.columns.push(`${c.table_name}.${c.column_name} ${typeClass(c.data_type)} ${c.is_nullable === 'NO' ? 'not null' : 'null'}`)
  const constraints = await q<{ tbl: string; contype: string; cols: string[]; ref_tbl: string | null; ref_cols: string[] | null; on_delete: string }>(`
    SELECT t.relname AS tbl, c.contype,
      array(SELECT a.attname::text FROM unnest(c.conkey) WITH ORDINALITY k(n, i) JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.n ORDER BY k.i) AS cols,
      r.relname AS ref_tbl,
      array(SELECT a.attname::text FROM unnest(c.confkey) WITH ORDINALITY k(n, i) JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.n ORDER BY k.i) AS ref_cols,
      c.confdeltype AS on_delete
    FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid JOIN pg_namespace n ON n.oid = t.relnamespace
    LEFT JOIN pg_class r ON r.oid = c.confrelid
    WHERE n.nspname = 'public' AND c.contype IN ('p', 'u', 'f') AND t.relname NOT LIKE 'kysely_%'`)
  const onDelete: Record<string, string> = { a: 'no action', r: 'restrict', c: 'cascade', n: 'set null', d: 'set default' }
  for (const c of constraints) {
    if (c.contype === 'p') schema.keys.push(`${c.tbl} primary key (${c.cols.join(', ')})`)
    else if (c.contype === 'u') schema.keys.push(`${c.tbl} unique (${c.cols.join(', ')})`)
    else schema.keys.push(`${c.tbl}.${c.cols[0]} references ${c.ref_tbl}.${c.ref_cols![0]} on delete ${onDelete[c.on_delete]}`)
  }
  const indexes = await q<{ tbl: string; name: string; uniq: boolean; partial: boolean; cols: string[] }>(`
    SELECT t.relname AS tbl, i.relname AS name, x.indisunique AS uniq, x.indpred IS NOT NULL AS partial,
      array(SELECT a.attname::text FROM unnest(x.indkey) WITH ORDINALITY k(n, o) JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.n ORDER BY k.o) AS cols
    FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid JOIN pg_namespace n ON n.oid = t.relnamespace
    WHERE n.nspname = 'public' AND t.relname NOT LIKE 'kysely_%' AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)`)
  for (const i of indexes) schema.indexes.push(`${i.tbl}.${i.name} (${i.cols.join(', ')})${i.uniq ? ' unique' : ''}${i.partial ? ' partial' : ''}`)
  schema.triggers = (
    await q<{ tbl: string; name: string }>(`
      SELECT c.relname AS tbl, g.tgname AS name FROM pg_trigger g JOIN pg_class c ON c.oid = g.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND NOT g.tgisinternal`)
  )
    .map((t) => `${t.tbl}.${t.name}`)
    .filter((name) => !POSTGRES_ONLY_TRIGGERS.includes(name))
  return schema
}

const sorted = (s: Schema): Schema => ({ columns: [...s.columns].sort(), keys: [...s.keys].sort(), indexes: [...s.indexes].sort(), triggers: [...s.triggers].sort() })

describe('migrations on SQLite and PostgreSQL', () => {
  let sqlite: Db
  let postgres: Db
  beforeAll(async () => {
    sqlite = createDb({ path: ':memory:' }).db
    postgres = createPostgresDb({ url: await freshPostgresDatabase('parity') })
    await migrateToLatest(sqlite)
    await migrateToLatest(postgres)
  })
  afterAll(async () => {
    await sqlite?.destroy()
    await postgres?.destroy()
  })

  it('end in the same tables, columns, keys, indexes and triggers', async () => {
    const own = await sqliteSchema(sqlite)
    const a = sorted({
      columns: own.columns.filter(notSqliteSearchIndex),
      keys: own.keys.filter(notSqliteSearchIndex),
      indexes: own.indexes.filter(notSqliteSearchIndex),
      triggers: own.triggers.filter(notSqliteSearchIndex),
    })
    const all = await postgresSchema(postgres)
    const b = sorted({
      columns: all.columns.filter(onBothEngines),
      keys: all.keys.filter(onBothEngines),
      indexes: all.indexes.filter((line) => onBothEngines(line) && line !== POSTGRES_SEARCH_INDEX),
      triggers: all.triggers.filter(onBothEngines),
    })
    // Each engine does have its search index: the names above stay true.
    expect(own.triggers).toEqual(expect.arrayContaining(SQLITE_SEARCH_TRIGGERS))
    expect(own.columns.some((line) => line.startsWith(`${SQLITE_SEARCH_QUEUE}.message_content_id `))).toBe(true)
    expect(own.columns.some((line) => line.startsWith('message_search_index'))).toBe(false)
    expect(all.indexes).toContain(POSTGRES_SEARCH_INDEX)
    expect(a.columns.length).toBeGreaterThan(50)
    expect(b).toEqual(a)
    // The list names tables that exist: a table renamed or dropped must leave it too.
    const postgresOnly = new Set(all.columns.filter((line) => !onBothEngines(line)).map((line) => line.split('.', 1)[0]))
    expect([...postgresOnly].sort()).toEqual([...POSTGRES_ONLY_TABLES].sort())
  })

  it('give PostgreSQL its change-notification triggers, and no other trigger of its own', async () => {
    const { rows } = await sql<{ name: string }>`SELECT c.relname || '.' || g.tgname AS name FROM pg_trigger g JOIN pg_class c ON c.oid = g.tgrelid
      WHERE g.tgname LIKE '%_notify' AND NOT g.tgisinternal ORDER BY 1`.execute(postgres)
    expect(rows.map((r) => r.name)).toEqual(POSTGRES_ONLY_TRIGGERS)
  })

  it('running them again changes nothing', async () => {
    const before = sorted(await postgresSchema(postgres))
    await migrateToLatest(postgres)
    expect(sorted(await postgresSchema(postgres))).toEqual(before)
  })
})
