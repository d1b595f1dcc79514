import type { SMTPServerDataStream, SMTPServerSession } from 'smtp-server'
import type { Config } from './config.js'
import type { InflightBudget } from './inflight-budget.js'
import { recipientDeliveries, senderOf, type Recipient } from './on-rcpt-to.js'
import { smtpError, type SmtpReplyError } from './smtp-error.js'
import type { IngestPipeline } from './ingest-pipeline.js'
import type { IngestMetrics } from './metrics.js'
import type { SmtpEnvelope } from './mail-auth/check.js'
import { refusalKindOf, type DeliveryEntry, type DeliveryReason, type RefusalKind } from '@tempbox/db'
import type { FaultState } from './fault-state.js'
import { rawSubject } from './sub-address.js'

const BUSY = () => smtpError(451, '4.3.1 Too much mail in progress, please try again later')

/** The reply to a message the store refused: the sender keeps it and retries (4xx), or gives up on it (552). */
const REFUSALS: Record<RefusalKind, () => SmtpReplyError> = {
  mailbox_full: () => smtpError(552, '5.2.2 Mailbox full'),
  // One reply covers every recipient: the sender retries them all, and the full ones are then refused at RCPT.
  some_mailboxes_full: () => smtpError(452, '4.2.2 Mailbox full for some recipients, try again later'),
  storage_full: () => smtpError(452, '4.3.1 Insufficient system storage, try again later'),
}

/** What DATA needs beside the pipeline for fault tags and the delivery log. */
export interface DataFaults {
  faults: FaultState
  /** A refused or deferred transaction's entry per inbox (batched: delivery-log-queue.ts). */
  log: (entry: DeliveryEntry) => void
  /** Closes the session's connection without a reply (`+disconnect`). */
  disconnect: (session: SMTPServerSession) => void
  clock?: () => number
}

/**
 * Reads the message (keeping no more than the size cap and the service's in-flight budget), parses it once, stores it
 * for every accepted recipient and answers 250 only after the commit: 552 when too big or every inbox is full, 452
 * when some inbox or the store is full, 451 when too much mail is in progress or storage failed. Fault tags decided
 * here: `+disconnect` (closed, nothing stored), `+tempfail<N>` (451 4.3.0), `+slow<N>` (the 250 comes N s late).
 */
export function createOnData(config: Config, pipeline: IngestPipeline, metrics: IngestMetrics, budget: InflightBudget, extra: DataFaults) {
  const { faults, log, disconnect, clock = Date.now } = extra
  /** Each inbox's entry for a transaction not stored, and the reply. */
  const refuse = (recipients: Recipient[], size: number | null, reason: DeliveryReason, error: SmtpReplyError, callback: (error: Error) => void) => {
    const at = clock()
    const code = error.responseCode
    const status = error.message.split(' ', 1)[0]!
    for (const r of recipients) {
      log({ inboxId: r.inboxId, at, result: code >= 500 ? 'refused' : 'deferred', replyCode: code, enhancedStatus: status, reason, size, tag: r.tag, messageId: null })
    }
    callback(error)
  }
  /** True when a `+tempfail<N>` recipient has not yet had its N tries of this sender and subject. */
  const tempfails = async (session: SMTPServerSession, recipients: Recipient[], raw: Buffer) => {
    const tagged = recipients.filter((r) => r.fault?.kind === 'tempfail')
    if (tagged.length === 0) return false
    const subject = rawSubject(raw)
    let fail = false
    for (const r of tagged) {
      const { tries } = await faults.tryAt(session, ['tempfail', senderOf(session), r.address, subject], clock())
      if (r.fault?.kind === 'tempfail' && tries <= r.fault.tries) fail = true
    }
    return fail
  }
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
      const recipients = recipientDeliveries(session)
      if (stream.sizeExceeded) {
        metrics.refused.inc({ reason: 'too_big' })
        release()
        refuse(recipients, stream.byteLength ?? null, 'too_big', smtpError(552, `5.3.4 Message too big: the limit is ${config.maxMessageBytes} bytes`), callback)
        return
      }
      if (overBudget) {
        metrics.refused.inc({ reason: 'busy' })
        refuse(recipients, null, 'busy', BUSY(), callback)
        return
      }
      const raw = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, length)
      if (recipients.some((r) => r.fault?.kind === 'disconnect')) {
        // No reply at all: the sender sees a dropped connection after its final dot, and must retry (RFC 5321 §4.1.1.4).
        release()
        metrics.refused.inc({ reason: 'fault_disconnect' })
        refuse(recipients, length, 'fault_disconnect', smtpError(421, '4.4.2 Connection closed after the final dot (the +disconnect test tag)'), () => disconnect(session))
        return
      }
      tempfails(session, recipients, raw).then(
        (fail) => {
          if (!fail) return store(raw, recipients)
          release()
          metrics.refused.inc({ reason: 'fault_tempfail' })
          refuse(recipients, length, 'fault_tempfail', smtpError(451, '4.3.0 Temporary failure on purpose, try again (the +tempfail test tag)'), callback)
        },
        (error: unknown) => {
          release()
          console.error('[smtp] the fault state failed:', error)
          metrics.refused.inc({ reason: 'lookup_failed' })
          refuse(recipients, length, 'store_failed', smtpError(451, '4.3.0 Temporary failure, please try again later'), callback)
        },
      )
    })
    const store = (raw: Buffer, recipients: Recipient[]) => {
      const inboxIds = recipients.map((r) => r.inboxId)
      const slow = Math.max(0, ...recipients.map((r) => (r.fault?.kind === 'slow' ? r.fault.seconds : 0)))
      const endTimer = metrics.commitSeconds.startTimer()
      const deliveries = recipients.map((r) => ({ tag: r.tag, reason: slow > 0 ? 'fault_slow' as const : 'accepted' as const }))
      const stored = inboxIds.length === 0
        ? Promise.reject(new Error('DATA without an accepted recipient'))
        : pipeline.accept(raw, inboxIds, clock(), envelopeOf(session), deliveries)
      stored.then(
        () => {
          release()
          endTimer()
          metrics.accepted.inc()
          metrics.storedBytes.inc(length * inboxIds.length)
          if (slow === 0) return callback(null, '2.0.0 Message stored')
          // Committed already; only the reply waits. The session's time limit (SMTP_MAX_SESSION_MS) still applies.
          setTimeout(() => callback(null, `2.0.0 Message stored, ${slow} s late on purpose (the +slow test tag)`), slow * 1000)
        },
        (error: unknown) => {
          release()
          const refusal = refusalKindOf(error)
          if (refusal) {
            metrics.refused.inc({ reason: refusal })
            refuse(recipients, length, refusal === 'storage_full' ? 'storage_full' : 'mailbox_full', REFUSALS[refusal](), callback)
            return
          }
          metrics.refused.inc({ reason: 'store_failed' })
          console.error('[smtp] storing a message failed:', error)
          refuse(recipients, length, 'store_failed', smtpError(451, '4.3.0 Could not store the message, please try again later'), callback)
        },
      )
    }
  }
}

/** What the sender check needs from the session (SPF judges the connecting address, HELO and MAIL FROM). */
function envelopeOf(session: SMTPServerSession): SmtpEnvelope {
  const mailFrom = session.envelope.mailFrom
  return { ip: session.remoteAddress, helo: session.hostNameAppearsAs ?? '', mailFrom: mailFrom ? mailFrom.address : '' }
}
