import type { ChangeEvent, CommitSignal, Db, DeleteEvent, NewMail } from '@tempbox/db'
import { RecentSet } from './recent-set.js'
import { findLiveInboxIds } from '../../repositories/inbox-repository.js'
import { findMessagesByIds, listNewMessageIds, maxMessageId, type MessageSummaryRow } from '../../repositories/message-repository.js'

export type InboxEvent = { type: 'message'; row: MessageSummaryRow } | { type: 'deleted'; id: number } | { type: 'expired' }
export type InboxListener = (event: InboxEvent) => void

const BATCH = 500
/**
 * Ids of messages this watcher already fanned out, and deletions it already told of, remembered so a notification
 * that repeats what a read (or this process's own deletion) found is not told twice. Bounded: older ones are forgotten.
 */
const REMEMBERED = 10_000

/** What the watcher needs of the storage (see Storage.watchNewMail and Storage.watchDeletes). */
export interface ChangeFeed {
  watchNewMail(onMail: (mail: NewMail | null) => void): Promise<CommitSignal>
  watchDeletes(onDelete: (event: DeleteEvent) => void): Promise<{ close(): void }>
  watchChanges(onChange: (event: ChangeEvent) => void): Promise<{ close(): void }>
}

/**
 * Notices messages that mail-ingest (another process, or on PostgreSQL another node) commits to the shared database,
 * and fans them out by inbox: one watcher for every open stream and long poll. It asks the storage's commit signal (on
 * SQLite, `PRAGMA data_version` on a connection of its own: a few microseconds; on PostgreSQL, a flag set by LISTEN)
 * every ~25 ms, and only when it says something was committed reads the messages with an id above the last one seen.
 * On SQLite ids are assigned inside the single-writer transaction, so they commit in order and "id > last seen" misses
 * nothing. On PostgreSQL several ingest nodes commit out of id order: each commit's notification names its ids, and
 * those below the last one seen that no read found yet are read by id. Within one inbox ids still commit in order (the
 * writer locks the inbox rows before it takes ids), so what streams and waits ask ("after id N of this inbox") holds.
 * Deletions leave nothing to read: on PostgreSQL every node hears them from the deleting transaction (watchDeletes);
 * on SQLite the deleting process tells this one (`messageDeleted`, `inboxExpired`, from the cluster's IPC). So do
 * read-state changes and updates of an inbox row (its owner, burn mode, expiry): on PostgreSQL from the updating
 * transaction (watchChanges), on SQLite from the process that made them (a read-state change; an inbox update is a
 * commit `data_version` shows, see onAnyCommit).
 */
export class MailWatcher {
  private signal: CommitSignal | null = null
  private deletes: { close(): void } | null = null
  private changeWatch: { close(): void } | null = null
  /** A read failed: the next check reads again instead of waiting for another commit. */
  private readFailed = false
  private lastId = 0
  /** Ids named by commit notifications since the last read (PostgreSQL); those no range read found are read by id. */
  private notifiedIds: number[] = []
  private readonly seen = new RecentSet<number>(REMEMBERED)
  private readonly toldDeleted = new RecentSet<string>(REMEMBERED)
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
  private readonly goneHandlers = new Set<(inboxId: number) => void>()
  private readonly updatedHandlers = new Set<(inboxId: number) => void>()
  private readonly resyncHandlers = new Set<() => void>()

  constructor(
    private readonly db: Db,
    private readonly feed: ChangeFeed,
    private readonly intervalMs = 25,
  ) {}

  async start(): Promise<void> {
    this.signal = await this.feed.watchNewMail((mail) => this.notified(mail))
    this.deletes = await this.feed.watchDeletes((event) => this.deleted(event))
    this.changeWatch = await this.feed.watchChanges((event) => this.rowsChanged(event))
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

  /** Since when new commits have gone unheard (PostgreSQL's listening connection is down), or null. */
  deafSince(): number | null {
    return this.signal?.deafSince() ?? null
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer)
    this.timer = null
    this.signal?.close()
    this.signal = null
    this.deletes?.close()
    this.deletes = null
    this.changeWatch?.close()
    this.changeWatch = null
  }

  /** A commit's new messages (PostgreSQL), remembered until the next read (bounded: a stuck read drops the oldest). */
  private notified(mail: NewMail | null): void {
    if (!mail) return
    for (const [id] of mail.messages) if (!this.seen.has(id)) this.notifiedIds.push(id)
    if (this.notifiedIds.length > REMEMBERED) this.notifiedIds.splice(0, this.notifiedIds.length - REMEMBERED)
  }

  /** Deletions by any node (PostgreSQL): streams, waits and caches forget them as they do this process's own. */
  private deleted(event: DeleteEvent): void {
    if (event.type === 'messages') {
      for (const [id, inboxId] of event.messages) this.messageDeleted(inboxId, id)
    } else if (event.type === 'inboxes') {
      for (const inboxId of event.inboxIds) this.inboxExpired(inboxId)
    } else {
      void this.resync()
    }
  }

  /**
   * Read state or an inbox row changed on any node (PostgreSQL). `unknown` comes with the reconnection that also
   * resyncs deletions (which drops every cache as well); dropping them here too keeps this feed right on its own.
   */
  private rowsChanged(event: ChangeEvent): void {
    if (event.type === 'readState') this.readStateChanged(event.inboxId)
    else if (event.type === 'inbox') this.updatedHandlers.forEach((h) => h(event.inboxId))
    else this.resyncHandlers.forEach((h) => h())
  }

  /**
   * Some deletions went unheard (the listening connection was lost, or one statement deleted more than a
   * notification names): caches are dropped, and streams of inboxes that are gone end. Messages deleted meanwhile
   * from an inbox that still exists are not announced; its next listing no longer has them.
   */
  private async resync(): Promise<void> {
    this.resyncHandlers.forEach((h) => h())
    const watched = [...this.listeners.keys()]
    try {
      const live = new Set<number>()
      for (let i = 0; i < watched.length; i += BATCH) {
        for (const id of await findLiveInboxIds(this.db, watched.slice(i, i + BATCH), Date.now())) live.add(id)
      }
      for (const inboxId of watched) if (!live.has(inboxId)) this.inboxExpired(inboxId)
    } catch {
      // The database is away: the streams carry on, and the next lost connection resyncs again.
    }
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
    if (!committed && !this.readFailed && this.notifiedIds.length === 0) return false
    this.readFailed = false
    return true
  }

  /**
   * Brings the watcher up to date with every commit made before this call. Cheap when nothing changed.
   * If a read is already under way it started after the last version change, so waiting for it is enough.
   */
  sync(): Promise<void> {
    if (!this.changed()) return this.running ?? Promise.resolve()
    return this.startRead()
  }

  /**
   * True when nothing was committed since the last check and no read is under way: caches may answer now, without
   * waiting a turn. Otherwise the read starts (as `sync()` starts it) and false says to wait for it with `sync()`.
   */
  upToDate(): boolean {
    if (this.running) return false
    if (!this.changed()) return true
    // Its failure reaches whoever awaits it through sync(); this caller only needed to know.
    this.startRead().catch(() => undefined)
    return false
  }

  private startRead(): Promise<void> {
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
    const notified = this.notifiedIds
    this.notifiedIds = []
    try {
      await this.readRange()
      // Committed (their notification came at commit) yet below the range read: another node committed them after a
      // later id was read.
      const late = notified.filter((id) => !this.seen.has(id))
      for (let i = 0; i < late.length; i += BATCH) {
        const ids = late.slice(i, i + BATCH)
        const rows = await findMessagesByIds(this.db, ids)
        // Deleted before this read: nothing to tell, and nothing to read again.
        for (const id of ids) this.seen.add(id)
        this.fanOut(rows)
      }
    } catch (err) {
      this.notifiedIds.unshift(...notified.filter((id) => !this.seen.has(id)))
      throw err
    }
  }

  /** Messages with an id above the last one seen, in batches. */
  private async readRange(): Promise<void> {
    for (;;) {
      const rows = await listNewMessageIds(this.db, this.lastId, BATCH)
      if (rows.length === 0) return
      this.lastId = rows[rows.length - 1]!.id
      const inboxes = new Set<number>()
      const watched: number[] = []
      for (const r of rows) {
        this.seen.add(r.id)
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

  /** Messages read by id (committed late): caches of their inboxes drop, and their watchers hear of them. */
  private fanOut(rows: MessageSummaryRow[]): void {
    for (const inboxId of new Set(rows.map((r) => r.inbox_id))) this.changeHandlers.forEach((h) => h(inboxId))
    for (const row of rows) this.emit(row.inbox_id, { type: 'message', row })
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

  /** Called with each inbox deleted (released, burnt, expired) by any process, whose cached rows must go. */
  onInboxGone(handler: (inboxId: number) => void): void {
    this.goneHandlers.add(handler)
  }

  /** Called with each inbox whose row (owner, burn mode, expiry) another node changed: a cached row of it is stale. */
  onInboxUpdated(handler: (inboxId: number) => void): void {
    this.updatedHandlers.add(handler)
  }

  /** Called when deletions may have gone unheard: every cache of rows must go. */
  onResync(handler: () => void): void {
    this.resyncHandlers.add(handler)
  }

  /**
   * A deletion the id watermark cannot see (this process's own, another's through the cluster, or any node's through
   * the storage). Told once: the deleting process hears its own deletion again from the storage.
   */
  messageDeleted(inboxId: number, id: number): void {
    const key = `${inboxId}:${id}`
    if (this.toldDeleted.has(key)) return
    this.toldDeleted.add(key)
    this.changeHandlers.forEach((h) => h(inboxId))
    this.emit(inboxId, { type: 'deleted', id })
  }

  /** A message of the inbox was marked read or unread (here, by another process, or by any node): its listing is stale. */
  readStateChanged(inboxId: number): void {
    this.changeHandlers.forEach((h) => h(inboxId))
  }

  inboxExpired(inboxId: number): void {
    this.goneHandlers.forEach((h) => h(inboxId))
    this.changeHandlers.forEach((h) => h(inboxId))
    this.emit(inboxId, { type: 'expired' })
  }

  subscriberCount(): number {
    let n = 0
    for (const set of this.listeners.values()) n += set.size
    return n
  }
}
