import type { Db } from '@tempbox/db'
import type { ParsedMessage } from './parse-message.js'

export interface IncomingMessage {
  /** Distinct inboxes the message goes to; one row is stored for each. */
  inboxIds: number[]
  parsed: ParsedMessage
  /** Exactly the bytes received after DATA. */
  raw: Buffer
  receivedAt: number
}

export interface MessageStore {
  /** Resolves once the message is committed (durable), rejects if it could not be stored. */
  store: (message: IncomingMessage) => Promise<void>
  /** Waits for queued messages to be written. */
  drain: () => Promise<void>
}

interface Pending {
  message: IncomingMessage
  resolve: () => void
  reject: (error: unknown) => void
}

/**
 * Group commit: messages that arrive while a transaction is being written wait and go together into the
 * next one, so many concurrent sessions share one WAL fsync instead of paying one each. Nobody is
 * acknowledged before the transaction holding their message has committed. If a batch fails (say an
 * inbox was deleted in between), each message is retried alone so one bad message cannot fail the others.
 */
export function createMessageStore(db: Db, options: { maxBatchMessages: number }): MessageStore {
  const queue: Pending[] = []
  let flushing: Promise<void> | null = null

  const flush = async () => {
    // Let the sessions whose data ended in this same tick join the first batch.
    await new Promise<void>((r) => setImmediate(r))
    while (queue.length > 0) {
      const batch = queue.splice(0, options.maxBatchMessages)
      try {
        await writeMessages(db, batch.map((p) => p.message))
        for (const p of batch) p.resolve()
      } catch (batchError) {
        if (batch.length === 1) {
          batch[0]!.reject(batchError)
          continue
        }
        for (const p of batch) {
          try {
            await writeMessages(db, [p.message])
            p.resolve()
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

/** Writes messages and their attachments in ONE transaction: all of them are stored, or none. */
export async function writeMessages(db: Db, messages: IncomingMessage[]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const { inboxIds, parsed, raw, receivedAt } of messages) {
      const recipients = JSON.stringify(parsed.recipients)
      const headers = JSON.stringify(parsed.headers)
      for (const inboxId of inboxIds) {
        const { insertId } = await trx
          .insertInto('message')
          .values({
            inbox_id: inboxId,
            from_name: parsed.from.name,
            from_address: parsed.from.address,
            recipients,
            subject: parsed.subject,
            text: parsed.text,
            html: parsed.html,
            sent_at: parsed.sentAt,
            received_at: receivedAt,
            size: raw.length,
            headers,
            raw,
            attachment_count: parsed.attachments.length,
          })
          .executeTakeFirstOrThrow()
        if (parsed.attachments.length === 0) continue
        await trx
          .insertInto('attachment')
          .values(
            parsed.attachments.map((a, position) => ({
              message_id: Number(insertId),
              position,
              filename: a.filename,
              content_type: a.contentType,
              size: a.size,
              content_id: a.contentId,
              is_inline: a.isInline ? 1 : 0,
              content: a.content,
            })),
          )
          .execute()
      }
    }
  })
}
