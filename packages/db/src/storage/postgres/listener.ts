import pg from 'pg'
import { postgresClientConfig } from '../../postgres-db.js'
import {
  CHANGES_CHANNEL, DELETES_CHANNEL, NEW_MAIL_CHANNEL, parseChange, parseDeletes, parseNewMail, type ChangeEvent, type DeleteEvent, type NewMail,
} from './notify.js'

/** Waits between reconnection attempts: from quick (a restarted server) to patient (one that stays down). */
const FIRST_RETRY_MS = 100
const MAX_RETRY_MS = 5000

export interface ListenerHandlers {
  /** A new-mail notification; `mail` null when the payload is unknown (a reader then re-reads). */
  newMail(mail: NewMail | null): void
  deletes(event: DeleteEvent): void
  /** Read state or an inbox row changed (not reported after a reconnection: `reconnected` covers it). */
  changes(event: ChangeEvent): void
  /** The connection came back: notifications sent while it was away are lost, so everything may have changed. */
  reconnected(): void
}

/**
 * One listening connection per storage, a pg Client of its own (a pooled connection would be lent to queries and
 * LISTEN is per session). When it is lost (server restart, pg_terminate_backend, network) it reconnects with backoff,
 * LISTENs again, and reports `reconnected` so readers re-read: no event is lost, some are merely folded into one
 * "re-read".
 */
export class NotificationListener {
  private client: pg.Client | null = null
  private connecting: Promise<void> | null = null
  private retryMs = FIRST_RETRY_MS
  private retryTimer: NodeJS.Timeout | null = null
  private closed = false
  /** False until the first connection: its LISTEN is not a reconnection. */
  private everConnected = false
  /** When the connection was lost, until it LISTENs again: readiness reports a node that has gone deaf for long. */
  private lostSince: number | null = null

  constructor(
    private readonly url: string,
    private readonly handlers: ListenerHandlers,
  ) {}

  /** Resolves once LISTENing, so a commit made after it is heard; rejects when the first connection fails. */
  start(): Promise<void> {
    this.connecting ??= this.connect().catch((error: unknown) => {
      this.connecting = null
      throw error
    })
    return this.connecting
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ ...postgresClientConfig({ url: this.url }), keepAlive: true })
    client.on('notification', (n) => this.dispatch(n))
    // 'error' then 'end' when the server drops us; either alone also means the session (and its LISTEN) is gone.
    client.on('error', () => this.lost(client))
    client.on('end', () => this.lost(client))
    try {
      await client.connect()
      await client.query(`LISTEN ${NEW_MAIL_CHANNEL}; LISTEN ${DELETES_CHANNEL}; LISTEN ${CHANGES_CHANNEL}`)
    } catch (error) {
      client.removeAllListeners('end')
      client.on('error', () => undefined)
      await client.end().catch(() => undefined)
      throw error
    }
    if (this.closed) {
      await client.end().catch(() => undefined)
      return
    }
    this.client = client
    this.lostSince = null
    this.retryMs = FIRST_RETRY_MS
    if (this.everConnected) this.handlers.reconnected()
    this.everConnected = true
  }

  private dispatch(n: pg.Notification): void {
    if (n.channel === NEW_MAIL_CHANNEL) this.handlers.newMail(parseNewMail(n.payload))
    else if (n.channel === DELETES_CHANNEL) this.handlers.deletes(parseDeletes(n.payload))
    else if (n.channel === CHANGES_CHANNEL) this.handlers.changes(parseChange(n.payload))
  }

  private lost(client: pg.Client): void {
    if (this.client !== client || this.closed) return
    this.client = null
    this.lostSince = Date.now()
    client.removeAllListeners('end')
    // Keep a late 'error' from becoming an uncaught exception.
    client.on('error', () => undefined)
    void client.end().catch(() => undefined)
    this.scheduleReconnect()
  }

  private scheduleReconnect(): void {
    if (this.closed || this.retryTimer) return
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null
      this.connect().catch(() => {
        this.retryMs = Math.min(this.retryMs * 2, MAX_RETRY_MS)
        this.scheduleReconnect()
      })
    }, this.retryMs)
    this.retryTimer.unref()
  }

  /** When the listening connection was lost, while it is not back; null while LISTENing (or not started). */
  get lostAt(): number | null {
    return this.lostSince
  }

  async close(): Promise<void> {
    this.closed = true
    if (this.retryTimer) clearTimeout(this.retryTimer)
    this.retryTimer = null
    const client = this.client
    this.client = null
    if (client) {
      client.removeAllListeners('end')
      client.on('error', () => undefined)
      await client.end().catch(() => undefined)
    }
  }
}
