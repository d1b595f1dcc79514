import type { SearchIndexBacklog } from '@tempbox/db'
import { Counter, Gauge, Histogram, Registry } from 'prom-client'
import { collectProcessMetrics } from '@tempbox/metrics'

/**
 * Why a connection (at connect), a recipient (at RCPT) or a message (at DATA) was refused. Never the address or the
 * client's IP.
 */
export type RefusalReason =
  | 'too_many_connections' | 'proxy_untrusted' | 'proxy_header'
  | 'relay_denied' | 'unknown_recipient' | 'too_many_recipients' | 'lookup_failed' | 'too_big' | 'store_failed'
  | 'mailbox_full' | 'some_mailboxes_full' | 'storage_full' | 'busy' | 'guess_limited'
  | 'fault_greylist' | 'fault_tempfail' | 'fault_reject' | 'fault_disconnect' | 'fault_full'

/** What mail-ingest counts for operators (served on METRICS_HOST:INGEST_METRICS_PORT). */
export interface IngestMetrics {
  registry: Registry
  sessionsOpened: Counter
  sessionsOpen: Gauge
  accepted: Counter
  refused: Counter<'reason'>
  storedBytes: Counter
  commitSeconds: Histogram
  /** Delivery log entries not written: its queue was full or its write failed (delivery-log-queue.ts). */
  deliveryLogDropped: Counter
}

/**
 * One registry per server (tests start several in one process). `queueDepth` is read at scrape time: messages
 * received whose commit (and so whose 250) is still pending; `inflightBytes` and `searchBacklog` likewise.
 */
export function createIngestMetrics(
  queueDepth: () => number, inflightBytes: () => number, searchBacklog: () => Promise<SearchIndexBacklog | null> = async () => null,
): IngestMetrics {
  const registry = new Registry()
  collectProcessMetrics(registry, 'tempbox_ingest_')
  new Gauge({
    name: 'tempbox_ingest_queue_messages',
    help: 'Messages received and not yet committed',
    registers: [registry],
    collect() {
      this.set(queueDepth())
    },
  })
  new Gauge({
    name: 'tempbox_ingest_inflight_bytes',
    help: 'Message bytes held in memory by all sessions, from DATA until stored (SMTP_MAX_INFLIGHT_BYTES caps it)',
    registers: [registry],
    collect() {
      this.set(inflightBytes())
    },
  })
  // Only where an index is filled apart from the commits (SQLite's index file): elsewhere there is no lag to show.
  new Gauge({
    name: 'tempbox_ingest_search_index_backlog',
    help: 'What the search indexer has yet to do: contents stored past its mark, and deleted contents to take out',
    labelNames: ['kind'],
    registers: [registry],
    async collect() {
      const backlog = await searchBacklog().catch(() => null)
      if (!backlog) return
      this.set({ kind: 'contents' }, backlog.contents)
      this.set({ kind: 'deletions' }, backlog.deletions)
    },
  })
  return {
    registry,
    sessionsOpened: new Counter({ name: 'tempbox_smtp_sessions_total', help: 'SMTP connections accepted', registers: [registry] }),
    sessionsOpen: new Gauge({ name: 'tempbox_smtp_sessions_open', help: 'SMTP connections open now', registers: [registry] }),
    accepted: new Counter({ name: 'tempbox_smtp_messages_accepted_total', help: 'Messages answered 250 (stored)', registers: [registry] }),
    refused: new Counter({
      name: 'tempbox_smtp_refused_total',
      help: 'Connections refused at connect, recipients at RCPT and messages at DATA, by reason',
      labelNames: ['reason'],
      registers: [registry],
    }),
    storedBytes: new Counter({
      name: 'tempbox_ingest_stored_bytes_total',
      help: 'Bytes of mail received and stored (a message counts once per inbox it went to)',
      registers: [registry],
    }),
    commitSeconds: new Histogram({
      name: 'tempbox_ingest_commit_seconds',
      help: 'From the end of DATA to the commit of the message (what a sender waits for its 250)',
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    }),
    deliveryLogDropped: new Counter({
      name: 'tempbox_ingest_delivery_log_dropped_total',
      help: 'Refused or deferred transactions left out of the delivery log (its queue, DELIVERY_LOG_MAX_QUEUED, was full or its write failed)',
      registers: [registry],
    }),
  }
}
