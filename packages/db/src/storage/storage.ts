import type { SearchIndexBacklog } from '../search/index-backlog.js'
import type { IndexStep } from '../search/indexer.js'
import type { Db, Engine } from '../create-db.js'
import type { WriteMessages, WriterLimits } from './message-to-store.js'
import type { ChangeEvent, DeleteEvent, NewMail } from './postgres/notify.js'

export type { ChangeEvent, DeleteEvent, NewMail } from './postgres/notify.js'

/**
 * What the apps do with their database, in their own words, whichever engine holds it. The API's repositories query
 * through `db` (Kysely); everything an engine does differently — opening, change notification, health — is here.
 * An engine's methods are async where a networked engine (PostgreSQL) must wait; SQLite may answer at once.
 */
export interface Storage {
  /** Which engine this is (logs, readiness answers). */
  readonly engine: Engine
  /** The query builder over this storage, for repositories. */
  readonly db: Db
  /** Resolves when the database answers a query; rejects with its error otherwise (readiness). */
  ping(): Promise<void>
  /**
   * Tells this process when other processes have committed (new mail from mail-ingest, above all). SQLite: a
   * connection of its own that reads `PRAGMA data_version`. PostgreSQL: the storage's listening connection hears the
   * NOTIFY the ingest transaction sends (delivered on commit); after that connection was lost and regained,
   * `changed()` is true (notifications sent meanwhile are gone: read again). `onMail` (PostgreSQL only) gets the
   * committed messages' ids: several ingest nodes commit out of id order, so "ids above the last one seen" can miss
   * one there; null when a payload could not be read.
   */
  watchNewMail(onMail?: (mail: NewMail | null) => void): Promise<CommitSignal>
  /**
   * Messages and inboxes deleted (by a user, burn after reading, the expiry sweep) by any process. PostgreSQL:
   * triggers NOTIFY at commit; `{ type: 'unknown' }` after the listening connection was lost and regained, or when a
   * statement deleted more than a notification names — re-read what is shown. SQLite: nothing comes through here;
   * every deleter is an API process on this host, and they tell each other (the cluster's IPC).
   */
  watchDeletes(onDelete: (event: DeleteEvent) => void): Promise<{ close(): void }>
  /**
   * Changes that make a cached listing or address row stale without adding or deleting a row, by any process: a
   * message marked read or unread, an inbox's owner, burn mode or expiry changed. PostgreSQL: triggers NOTIFY at
   * commit (never for a rollback); `{ type: 'unknown' }` after the listening connection was lost and regained. SQLite:
   * nothing comes through here; `data_version` shows every commit, and API processes tell each other of read state.
   */
  watchChanges(onChange: (event: ChangeEvent) => void): Promise<{ close(): void }>
  /** The inbox with this lower-cased address if it is active (not expired at `now`), with what it holds; else null. */
  findActiveInbox(address: string, now: number): Promise<ActiveInbox | null>
  /** Bytes the stored data takes (space freed inside the store and reused first does not count): the size cap's measure. */
  databaseBytes(): Promise<number>
  /** Free bytes, for an unprivileged writer, on the disk this process stores to; Infinity when it stores to no local disk. */
  freeDiskBytes(): Promise<number>
  /**
   * Sender checks left `checking` by a process that stopped before answering them are marked `unknown` (checked at
   * `now`); gives how many. Nobody will check them any more.
   */
  settleLeftoverChecks(now: number): Promise<number>
  /**
   * The ingest writer: a batch of messages in one commit, within `limits` (see WriteMessages). SQLite: prepared once,
   * run as one synchronous IMMEDIATE transaction on this storage's connection (open one storage per writing thread).
   * `autocheckpointBytes`: past this much WAL a commit checkpoints by itself (a safety net behind `checkpoint`).
   */
  messageWriter(limits?: WriterLimits, options?: { autocheckpointBytes?: number }): WriteMessages
  /**
   * Folds what was committed into the main store so reads stay short. SQLite: a PASSIVE WAL checkpoint, which never
   * blocks the writer (run it beside the writer, not inside its commits). Engines that checkpoint by themselves
   * (PostgreSQL) do nothing.
   */
  checkpoint(): Promise<void>
  /**
   * One step of filling a search index kept apart from the message commits, off their write lock (SQLite: the index
   * file, search/indexer.ts): the rows it handled, and whether it stopped at a limit. null: this engine keeps its
   * index in step by itself (PostgreSQL), or the database has no file beside it (':memory:').
   */
  indexSearchStep(): Promise<IndexStep | null>
  /** Whether `indexSearchStep` has work: then an indexer must run beside the writer (mail-ingest runs it). */
  readonly indexesSearchApart: boolean
  /** How far that index is behind (for the operators' metric); null where `indexSearchStep` is. */
  searchIndexBacklog(): Promise<SearchIndexBacklog | null>
  /**
   * Stores sender-check verdicts over their messages' `checking` rows, the batch in one transaction (one write lock,
   * not one per message). A message deleted meanwhile has no row left: nothing changes.
   */
  writeVerdicts(batch: readonly (readonly [contentId: number, verdict: StoredVerdict])[], at: number): Promise<void>
  /**
   * The database for a background loop whose last commits may be redone when lost and which must never keep a request
   * waiting (the webhook delivery loop). SQLite: a connection of its own that waits at most `busyTimeoutMs` for the
   * write lock and commits without waiting on the disk. PostgreSQL: this storage's pool, whose writers wait on no
   * file-wide lock; a pool of the loop's own cost a server process or two for nothing. `close` closes what it opened.
   */
  backgroundDb(options: { busyTimeoutMs: number }): { db: Db; close(): Promise<void> }
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
  /**
   * Since when commits have gone unheard (ms since the epoch), or null while they are heard. PostgreSQL: the listening
   * connection was lost then and is not back yet (commits meanwhile are read once it is). SQLite: always null — a
   * failing probe throws from `changed()` instead.
   */
  deafSince(): number | null
  close(): void
}

export interface StorageConfig {
  /** Path of the SQLite file, or ':memory:' (not used when `url` names PostgreSQL). */
  path: string
  /** DATABASE_URL: a `postgres://` URL opens PostgreSQL; unset (or anything else) keeps the SQLite file at `path`. */
  url?: string
  /** PostgreSQL only: connections this storage's pool keeps open at most. */
  poolSize?: number
  /** SQLite only: how long a writer waits for another connection's lock before failing (ms). */
  busyTimeoutMs?: number
  /**
   * false: this storage's commits may be lost on power loss, though never half-applied (SQLite: synchronous=NORMAL;
   * PostgreSQL: synchronous_commit=off). Only for what may be redone or reads as unknown when lost, never for mail.
   */
  durable?: boolean
}

/** A sender check's outcome as stored (`details` already JSON, or null). */
export interface StoredVerdict {
  status: string
  details: string | null
  authenticationResults: string | null
}

/** An active inbox as the recipient check sees it. */
export interface ActiveInbox {
  id: number
  expiresAt: number
  messageCount: number
  bytesUsed: number
  /** Deleted with its mail when a message is first read: it may be gone the next moment (so never cache it). */
  burnsOnRead: boolean
}
