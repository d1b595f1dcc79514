import type { AcceptedDelivery, SearchCopy, StoredSource } from '@tempbox/db'
import type { ParsedMessage } from './parse-message.js'
import type { StoredDerivation } from './derive-view.js'
import type { SmtpEnvelope } from './mail-auth/check.js'

/** A parsed message as it goes to the writer: by then a long HTML may be its UTF-8 bytes (see parse-worker.ts). */
export type ParsedForStore = Omit<ParsedMessage, 'html'> & { html: string | Buffer | null }

export interface MessageToStore {
  /** Distinct inboxes the message goes to: its content is stored once, with a listing row for each. */
  inboxIds: number[]
  parsed: ParsedForStore
  /** The bytes received after DATA, as they are stored (toStoredSource: the body may be left to `parsed.text`). */
  source: StoredSource
  receivedAt: number
  /** Preview, codes, links, text of HTML, sanitized HTML: computed in the parse worker (deriveView). */
  derived: StoredDerivation
  /** Subject, sender and text folded for search, also in the parse worker (deriveSearchCopy). */
  search?: SearchCopy
  /** Set when the sender check is on: the message is stored as `checking` and checked after the commit. */
  envelope?: SmtpEnvelope
  /** Per inbox: the +tag and the delivery log's reason, written in the message's commit. */
  deliveries?: AcceptedDelivery[]
}

/**
 * Writes messages and their attachments in ONE transaction: all of them are committed, or none. Gives their content
 * ids. The storage's `messageWriter` is one (packages/db: prepared statements, quotas, the size cap).
 */
export type WriteMessages = (messages: MessageToStore[]) => Promise<number[]>

/** About what one stored message adds to the WAL: its large columns once, and a small row per inbox it goes to. */
export function walBytesOf({ source, parsed, inboxIds, derived }: MessageToStore): number {
  const attachments = parsed.attachments.reduce((sum, a) => sum + a.content.length, 0)
  return source.raw.length + (parsed.text?.length ?? 0) + (parsed.html?.length ?? 0) + derivedLength(derived) + attachments + 512 * inboxIds.length
}

function derivedLength(d: StoredDerivation): number {
  return d.preview.length + (d.htmlText?.length ?? 0) + (d.safeHtml?.length ?? 0)
}

export interface MessageStore {
  /** Resolves once the message is committed (durable), rejects if it could not be stored. */
  store: (message: MessageToStore) => Promise<void>
  /** Waits for queued messages to be written. */
  drain: () => Promise<void>
}

interface Pending {
  message: MessageToStore
  resolve: () => void
  reject: (error: unknown) => void
}

/**
 * Group commit: messages that arrive while a transaction is being written wait and go together into the
 * next one, so many concurrent sessions share one WAL fsync instead of paying one each. Nobody is
 * acknowledged before the transaction holding their message has committed. If a batch fails (say an
 * inbox was deleted in between), each message is retried alone so one bad message cannot fail the others.
 */
export function createMessageStore(
  write: WriteMessages,
  options: { maxBatchMessages: number; onCommitted?: (messages: MessageToStore[], contentIds: number[]) => void },
): MessageStore {
  const queue: Pending[] = []
  let flushing: Promise<void> | null = null

  const flush = async () => {
    // Yield once per batch so messages that arrived during the last commit join the next one.
    for (;;) {
      await new Promise<void>((r) => setImmediate(r))
      if (queue.length === 0) break
      const batch = queue.splice(0, options.maxBatchMessages)
      try {
        const messages = batch.map((p) => p.message)
        const contentIds = await write(messages)
        for (const p of batch) p.resolve()
        options.onCommitted?.(messages, contentIds)
      } catch (batchError) {
        for (const p of batch) {
          try {
            if (batch.length === 1) throw batchError
            const contentIds = await write([p.message])
            p.resolve()
            options.onCommitted?.([p.message], contentIds)
          } catch (error) {
            p.reject(error)
          }
        }
      }
    }
    flushing = null
  }

  return {
    store: (message) =>
      new Promise<void>((resolve, reject) => {
        queue.push({ message, resolve, reject })
        flushing ??= flush()
      }),
    drain: async () => {
      while (flushing) await flushing
    },
  }
}
