import type { SMTPServerDataStream, SMTPServerSession } from 'smtp-server'
import type { Config } from './config.js'
import { recipientInboxIds } from './on-rcpt-to.js'
import { smtpError } from './smtp-error.js'
import type { IngestPipeline } from './ingest-pipeline.js'
import type { IngestMetrics } from './metrics.js'

/**
 * Reads the message (keeping no more than the size cap), parses it once, stores it for every accepted
 * recipient and answers 250 only after the commit: 552 when too big, 451 when storage failed.
 */
export function createOnData(config: Config, pipeline: IngestPipeline, metrics: IngestMetrics) {
  return (
    stream: SMTPServerDataStream,
    session: SMTPServerSession,
    callback: (error?: Error | null, message?: string) => void,
  ): void => {
    const chunks: Buffer[] = []
    let length = 0
    stream.on('data', (chunk: Buffer) => {
      // Past the cap we keep reading (the client is still sending) but stop holding bytes.
      if (length + chunk.length > config.maxMessageBytes) return
      chunks.push(chunk)
      length += chunk.length
    })
    stream.once('end', () => {
      if (stream.sizeExceeded) {
        metrics.refused.inc({ reason: 'too_big' })
        callback(smtpError(552, `5.3.4 Message too big: the limit is ${config.maxMessageBytes} bytes`))
        return
      }
      const raw = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, length)
      const inboxIds = recipientInboxIds(session)
      const endTimer = metrics.commitSeconds.startTimer()
      const stored = inboxIds.length === 0
        ? Promise.reject(new Error('DATA without an accepted recipient'))
        : pipeline.accept(raw, inboxIds, Date.now())
      stored.then(
        () => {
          endTimer()
          metrics.accepted.inc()
          metrics.storedBytes.inc(length * inboxIds.length)
          callback(null, '2.0.0 Message stored')
        },
        (error: unknown) => {
          metrics.refused.inc({ reason: 'store_failed' })
          console.error('[smtp] storing a message failed:', error)
          callback(smtpError(451, '4.3.0 Could not store the message, please try again later'))
        },
      )
    })
  }
}
