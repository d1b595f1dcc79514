import type { SMTPServerDataStream, SMTPServerSession } from 'smtp-server'
import type { Config } from './config.js'
import type { InflightBudget } from './inflight-budget.js'
import { recipientInboxIds } from './on-rcpt-to.js'
import { smtpError } from './smtp-error.js'
import type { IngestPipeline } from './ingest-pipeline.js'
import type { IngestMetrics } from './metrics.js'
import type { SmtpEnvelope } from './mail-auth/check.js'
import { refusalKindOf, type RefusalKind } from '@tempbox/db'

const BUSY = () => smtpError(451, '4.3.1 Too much mail in progress, please try again later')

/** The reply to a message the store refused: the sender keeps it and retries (4xx), or gives up on it (552). */
const REFUSALS: Record<RefusalKind, () => Error> = {
  mailbox_full: () => smtpError(552, '5.2.2 Mailbox full'),
  // One reply covers every recipient: the sender retries them all, and the full ones are then refused at RCPT.
  some_mailboxes_full: () => smtpError(452, '4.2.2 Mailbox full for some recipients, try again later'),
  storage_full: () => smtpError(452, '4.3.1 Insufficient system storage, try again later'),
}

/**
 * Reads the message (keeping no more than the size cap and the service's in-flight budget), parses it once, stores it
 * for every accepted recipient and answers 250 only after the commit: 552 when too big or every inbox is full, 452
 * when some inbox or the store is full, 451 when too much mail is in progress or storage failed.
 */
export function createOnData(config: Config, pipeline: IngestPipeline, metrics: IngestMetrics, budget: InflightBudget) {
  return (
    stream: SMTPServerDataStream,
    session: SMTPServerSession,
    callback: (error?: Error | null, message?: string) => void,
  ): void => {
    // smtp-server reads (and drops) the rest of the message, then sends the reply.
    if (!budget.hasRoom()) {
      metrics.refused.inc({ reason: 'busy' })
      callback(BUSY())
      return
    }
    const chunks: Buffer[] = []
    let length = 0
    let overBudget = false
    let held = 0
    const release = () => {
      budget.give(held)
      held = 0
    }
    stream.on('data', (chunk: Buffer) => {
      // Past a cap we keep reading (the client is still sending) but stop holding bytes.
      if (overBudget || length + chunk.length > config.maxMessageBytes) return
      if (!budget.take(chunk.length)) {
        overBudget = true
        chunks.length = 0
        release()
        return
      }
      held += chunk.length
      chunks.push(chunk)
      length += chunk.length
    })
    // A client gone mid-message: its bytes are no longer held.
    stream.once('close', () => {
      if (!stream.readableEnded) release()
    })
    stream.once('end', () => {
      if (stream.sizeExceeded) {
        metrics.refused.inc({ reason: 'too_big' })
        release()
        callback(smtpError(552, `5.3.4 Message too big: the limit is ${config.maxMessageBytes} bytes`))
        return
      }
      if (overBudget) {
        metrics.refused.inc({ reason: 'busy' })
        callback(BUSY())
        return
      }
      const raw = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, length)
      const inboxIds = recipientInboxIds(session)
      const endTimer = metrics.commitSeconds.startTimer()
      const stored = inboxIds.length === 0
        ? Promise.reject(new Error('DATA without an accepted recipient'))
        : pipeline.accept(raw, inboxIds, Date.now(), envelopeOf(session))
      stored.then(
        () => {
          release()
          endTimer()
          metrics.accepted.inc()
          metrics.storedBytes.inc(length * inboxIds.length)
          callback(null, '2.0.0 Message stored')
        },
        (error: unknown) => {
          release()
          const refusal = refusalKindOf(error)
          if (refusal) {
            metrics.refused.inc({ reason: refusal })
            callback(REFUSALS[refusal]())
            return
          }
          metrics.refused.inc({ reason: 'store_failed' })
          console.error('[smtp] storing a message failed:', error)
          callback(smtpError(451, '4.3.0 Could not store the message, please try again later'))
        },
      )
    })
  }
}

/** What the sender check needs from the session (SPF judges the connecting address, HELO and MAIL FROM). */
function envelopeOf(session: SMTPServerSession): SmtpEnvelope {
  const mailFrom = session.envelope.mailFrom
  return { ip: session.remoteAddress, helo: session.hostNameAppearsAs ?? '', mailFrom: mailFrom ? mailFrom.address : '' }
}
