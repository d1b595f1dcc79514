import { Kysely, PostgresAdapter, PostgresDialect } from 'kysely'
import pg from 'pg'
import type { Database } from './schema.js'

export interface PostgresConfig {
  /** `postgres://user:password@host:port/database` (or `postgresql://`). */
  url: string
  /** Connections this process keeps open at most (each API or ingest process has its own pool). */
  poolSize?: number
  /**
   * false: the pool's sessions commit with synchronous_commit=off (a commit may be lost on a crash, never half-applied).
   * Only for what may be redone or reads as unknown when lost, never for mail.
   */
  durable?: boolean
}

/** Enough for one process's concurrent requests without crowding PostgreSQL's max_connections across nodes. */
export const DEFAULT_POOL_SIZE = 10

const INT8_OID = 20
const NUMERIC_OID = 1700

/**
 * `pg` returns int8 (and numeric, e.g. `sum()` of bigint) as strings because they can exceed 2^53. Ours are ids, byte
 * counts and epoch milliseconds, all far below it: they come back as numbers, as SQLite gives them, so no code above
 * the storage layer knows which engine it talks to.
 */
const types: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID || oid === NUMERIC_OID ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format ?? 'text')) as pg.CustomTypesConfig['getTypeParser'],
}

/** True when DATABASE_URL names a PostgreSQL server (anything else keeps the embedded SQLite file). */
export function isPostgresUrl(value: string | undefined): value is string {
  return value !== undefined && /^postgres(ql)?:\/\//i.test(value.trim())
}

/** How this package connects a pg Client or Pool to `url`: our type parsers, and the session settings `durable` asks for. */
export function postgresClientConfig(config: Pick<PostgresConfig, 'url' | 'durable'>): pg.ClientConfig {
  // A startup option, so every session of the pool has it from its first statement (no SET per checkout).
  return { connectionString: config.url.trim(), types, ...(config.durable === false ? { options: '-c synchronous_commit=off' } : {}) }
}

/** A pool of connections to PostgreSQL (they open lazily, at the first query) and a Kysely on it. */
export function createPostgresPool(config: PostgresConfig): { db: Kysely<Database>; pool: pg.Pool } {
  const pool = new pg.Pool({ ...postgresClientConfig(config), max: config.poolSize ?? DEFAULT_POOL_SIZE })
  // A connection that dies (the server restarted, an operator ended the session) emits 'error' on its client, and an
  // idle one on the pool as well; with nobody listening, Node would end the process. The query that was waiting on it
  // fails with the error anyway, and the pool drops the client: nothing is left to do here.
  pool.on('error', () => undefined)
  pool.on('connect', (client) => client.on('error', () => undefined))
  return { db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }), pool }
}

/** A Kysely on a pool of connections to PostgreSQL. Connections open lazily, at the first query. */
export function createPostgresDb(config: PostgresConfig): Kysely<Database> {
  return createPostgresPool(config).db
}

/** Which engine a Kysely talks to, for the few places where the SQL differs. */
export function engineOf(db: { getExecutor: Kysely<Database>['getExecutor'] }): 'sqlite' | 'postgres' {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite'
}
