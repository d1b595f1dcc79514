import type { Db } from '../create-db.js'

/**
 * What the apps do with their database, in their own words, whichever engine holds it. The API's repositories query
 * through `db` (Kysely); everything an engine does differently — opening, change notification, health — is here.
 * An engine's methods are async where a networked engine (PostgreSQL) must wait; SQLite may answer at once.
 */
export interface Storage {
  /** Which engine this is (logs, readiness answers). */
  readonly engine: 'sqlite'
  /** The query builder over this storage, for repositories. */
  readonly db: Db
  /** Resolves when the database answers a query; rejects with its error otherwise (readiness). */
  ping(): Promise<void>
  /**
   * Tells this process when other processes have committed (new mail from mail-ingest, above all). SQLite: a
   * connection of its own that reads `PRAGMA data_version`. PostgreSQL (planned): LISTEN on a channel the ingest
   * transaction NOTIFYs, so it fires on commit.
   */
  watchNewMail(): Promise<CommitSignal>
  /** Closes every connection this storage opened. */
  close(): Promise<void>
}

/** A cheap, synchronous "has anything been committed elsewhere since I last asked?". */
export interface CommitSignal {
  /**
   * True when another connection may have committed since the previous call (never a false "no"). Cheap enough to
   * ask on every request: SQLite answers it with one pragma read, a notified engine with a flag.
   */
  changed(): boolean
  close(): void
}
