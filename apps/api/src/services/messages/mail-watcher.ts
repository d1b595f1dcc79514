import type { CommitSignal, Db } from '@tempbox/db'
import { findMessagesByIds, listNewMessageIds, maxMessageId, type MessageSummaryRow } from '../../repositories/message-repository.js'

export type InboxEvent = { type: 'message'; row: MessageSummaryRow } | { type: 'deleted'; id: number } | { type: 'expired' }
export type InboxListener = (event: InboxEvent) => void

const BATCH = 500

/**
 * Notices messages that mail-ingest (another process) commits to the shared database, and fans them out by inbox:
 * one watcher for every open stream and long poll. It asks the storage's commit signal (on SQLite, `PRAGMA
 * data_version` on a connection of its own: a few microseconds) every ~25 ms, and only when it says another
 * connection committed reads the messages with an id above the last one seen. Ids are assigned inside the
 * single-writer transaction, so they commit in order and "id > last seen" misses nothing.
 */
export class MailWatcher {
  private signal: CommitSignal | null = null
  /** A read failed: the next check reads again instead of waiting for another commit. */
  private readFailed = false
  private lastId = 0
  private running: Promise<void> | null = null
  private checkedThisTurn = false
  private readonly resetTurn = () => {
    this.checkedThisTurn = false
  }
  private timer: NodeJS.Timeout | null = null
  /** When a scheduled check last completed without error (the readiness check reads it). */
  lastCheckedAt = 0
  private readonly listeners = new Map<number, Set<InboxListener>>()
  private readonly changeHandlers = new Set<(inboxId: number) => void>()
  private readonly commitHandlers = new Set<() => void>()

  constructor(
    private readonly db: Db,
    private readonly watchNewMail: () => Promise<CommitSignal>,
    private readonly intervalMs = 25,
  ) {}

  async start(): Promise<void> {
    this.signal = await this.watchNewMail()
    this.lastId = await maxMessageId(this.db)
    this.lastCheckedAt = Date.now()
    this.timer = setInterval(() => {
      void this.sync().then(
        () => {
          this.lastCheckedAt = Date.now()
        },
        () => undefined,
      )
    }, this.intervalMs)
    this.timer.unref()
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer)
    this.timer = null
    this.signal?.close()
    this.signal = null
  }

  /**
   * True when another connection may have committed since the last check. Asked at most once per event-loop turn:
   * requests handled in the same turn arrived together, and a request sent after a commit that followed this check
   * (say, after the SMTP 250) can only be read in a later turn, which checks again. Saves the read lock that each
   * `data_version` read takes when thousands of polls arrive per second.
   */
  private changed(): boolean {
    if (!this.signal || this.checkedThisTurn) return false
    this.checkedThisTurn = true
    setImmediate(this.resetTurn)
    const committed = this.signal.changed()
    if (!committed && !this.readFailed) return false
    this.readFailed = false
    return true
  }

  /**
   * Brings the watcher up to date with every commit made before this call. Cheap when nothing changed.
   * If a read is already under way it started after the last version change, so waiting for it is enough.
   */
  sync(): Promise<void> {
    if (!this.changed()) return this.running ?? Promise.resolve()
    this.commitHandlers.forEach((h) => h())
    const previous = this.running ?? Promise.resolve()
    const next: Promise<void> = previous
      .catch(() => undefined)
      .then(() => this.readNew())
      .catch((err: unknown) => {
        this.readFailed = true
        throw err
      })
      .finally(() => {
        if (this.running === next) this.running = null
      })
    this.running = next
    return next
  }

  private async readNew(): Promise<void> {
    for (;;) {
      const rows = await listNewMessageIds(this.db, this.lastId, BATCH)
      if (rows.length === 0) return
      this.lastId = rows[rows.length - 1]!.id
      const watched: number[] = []
      const inboxes = new Set<number>()
      for (const r of rows) {
        inboxes.add(r.inbox_id)
        if (this.listeners.has(r.inbox_id)) watched.push(r.id)
      }
      for (const inboxId of inboxes) this.changeHandlers.forEach((h) => h(inboxId))
      if (watched.length > 0) {
        for (const row of await findMessagesByIds(this.db, watched)) this.emit(row.inbox_id, { type: 'message', row })
      }
      if (rows.length < BATCH) return
    }
  }

  private emit(inboxId: number, event: InboxEvent): void {
    const set = this.listeners.get(inboxId)
    if (!set) return
    for (const listener of [...set]) {
      try {
        listener(event)
      } catch {
        // one broken subscriber must not starve the others
      }
    }
  }

  /** Subscribes to one inbox; returns the unsubscribe function. */
  subscribe(inboxId: number, listener: InboxListener): () => void {
    let set = this.listeners.get(inboxId)
    if (!set) {
      set = new Set()
      this.listeners.set(inboxId, set)
    }
    set.add(listener)
    return () => {
      const current = this.listeners.get(inboxId)
      if (!current) return
      current.delete(listener)
      if (current.size === 0) this.listeners.delete(inboxId)
    }
  }

  /** Called with each inbox whose messages changed (cache invalidation). */
  onInboxChange(handler: (inboxId: number) => void): void {
    this.changeHandlers.add(handler)
  }

  /** Called (synchronously, inside `sync`) whenever any connection may have committed anything. */
  onAnyCommit(handler: () => void): void {
    this.commitHandlers.add(handler)
  }

  /** Changes made by this process that the id watermark cannot see. */
  messageDeleted(inboxId: number, id: number): void {
    this.changeHandlers.forEach((h) => h(inboxId))
    this.emit(inboxId, { type: 'deleted', id })
  }

  inboxExpired(inboxId: number): void {
    this.changeHandlers.forEach((h) => h(inboxId))
    this.emit(inboxId, { type: 'expired' })
  }

  subscriberCount(): number {
    let n = 0
    for (const set of this.listeners.values()) n += set.size
    return n
  }
}
