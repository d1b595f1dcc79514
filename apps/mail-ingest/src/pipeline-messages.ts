import type { MessagePort } from 'node:worker_threads'
import type { SmtpEnvelope } from './mail-auth/check.js'
import type { AcceptedDelivery, RefusalKind } from '@tempbox/db'
import type { MessageToStore } from './store-message.js'

/** SMTP thread → parse worker: the bytes received and where they go. */
export interface ParseRequest {
  id: number
  raw: Uint8Array
  inboxIds: number[]
  receivedAt: number
  /** Set when the sender check is on: what it needs from the session. */
  envelope?: SmtpEnvelope
  /** Per inbox: the +tag and the delivery log's reason (see IngestPipeline.accept). */
  deliveries?: AcceptedDelivery[]
}

/** Parse worker → store worker, over their own channel (the SMTP thread never touches parsed messages). */
export interface StoreRequest {
  id: number
  message: MessageToStore
}

/** Store worker (a commit's replies in one array) or a parse worker that failed (alone) → SMTP thread. */
export type PipelineReply = { id: number; ok: true } | { id: number; ok: false; error: string; refusal?: RefusalKind | null }

/** SMTP thread → store worker, when it starts a parse worker: the store worker's end of their channel. */
export interface ParserPortMessage {
  type: 'parser-port'
  port: MessagePort
}
