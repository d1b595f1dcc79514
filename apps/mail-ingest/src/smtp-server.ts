import type { AddressInfo } from 'node:net'
import { openIssuedAddresses, type Storage } from '@tempbox/db'
import { SMTPServer } from 'smtp-server'
import type { Config } from './config.js'
import { createOnData } from './on-data.js'
import { createInboxLookup, createOnRcptTo } from './on-rcpt-to.js'
import { createIngestPipeline } from './ingest-pipeline.js'
import { createIngestMetrics, type IngestMetrics, type RefusalReason } from './metrics.js'
import { createClientLimits } from './client-limits.js'
import { createGuessLimit } from './guess-limit.js'
import { createFaultState } from './fault-state.js'
import { createDeliveryLogQueue } from './delivery-log-queue.js'
import { createInflightBudget } from './inflight-budget.js'
import { createStorageGuard } from './storage-guard.js'
import { coalesceReplies } from './coalesce-replies.js'
import { describeCertificate, readKeyPair, watchKeyPair } from './tls-certificate.js'
import { acceptProxyProtocol } from './proxy-protocol/accept.js'

/** How often refused and deferred transactions' delivery log entries are written (~1 s: a user looking sees them). */
const DELIVERY_LOG_FLUSH_MS = 1000

export interface IngestServer {
  server: SMTPServer
  metrics: IngestMetrics
  /** Starts listening; resolves with the bound port (useful with port 0). */
  listen: () => Promise<number>
  /** The start-up line about TLS: the certificate in use, or that mail arrives in clear text. */
  tlsStatus: string
  /** Stops accepting, lets open sessions finish (up to closeTimeoutMs) and flushes queued writes. */
  close: () => Promise<void>
  /** Writes the queued delivery log entries now (tests: rather than wait for the next batch). */
  flushDeliveryLog: () => Promise<void>
}

/**
 * Wires smtp-server to our RCPT and DATA handlers. `clock` is the time RCPT judges an inbox's expiry by; tests pass
 * their own so an address can expire between two transactions without the test racing the wall clock.
 */
export function createSmtpServer({ storage, config, clock = Date.now }: { storage: Storage; config: Config; clock?: () => number }): IngestServer {
  // Read before anything starts: a missing or mismatched certificate stops the start with the reason.
  const keyPair = config.tls ? readKeyPair(config.tls) : null
  const pipeline = createIngestPipeline(storage, config)
  const inflight = createInflightBudget(config.maxInflightBytes)
  const metrics = createIngestMetrics(pipeline.pending, inflight.used, () => storage.searchIndexBacklog())
  const clients = createClientLimits(config)
  const issued = openIssuedAddresses(storage.db)
  const guesses = createGuessLimit(storage, issued, config, clock)
  const faults = createFaultState(storage, issued, config, clock)
  const deliveryLog = createDeliveryLogQueue(storage, { keep: config.deliveryLogEntries, maxQueued: config.deliveryLogMaxQueued, flushMs: DELIVERY_LOG_FLUSH_MS }, (count) =>
    metrics.deliveryLogDropped.inc(count),
  )
  const log = deliveryLog.push
  const server = new SMTPServer({
    name: config.mailDomains[0],
    banner: 'Tempbox mail ingest',
    size: config.maxMessageBytes,
    // Anonymous inbound mail only: no AUTH. STARTTLS only with a certificate of our own (smtp-server would otherwise
    // offer its built-in self-signed one), so codes don't cross the internet in clear text.
    authOptional: true,
    disabledCommands: keyPair ? ['AUTH'] : ['AUTH', 'STARTTLS'],
    ...(keyPair ?? {}),
    // A reverse DNS lookup per connection costs time and reveals nothing we keep.
    disableReverseLookup: true,
    maxClients: config.maxClients,
    socketTimeout: config.socketTimeoutMs,
    // smtp-server reads 0 as "its 30 s default"; Node runs a 0 ms timer after 1 ms anyway, so 1 is "at once".
    closeTimeout: Math.max(config.closeTimeoutMs, 1),
    logger: false,
    // A client over its share is refused before any SMTP command: counted here, as no later handler sees it.
    onConnect: (session, callback) =>
      clients.onConnect(session, (error) => {
        if (error) metrics.refused.inc({ reason: 'too_many_connections' satisfies RefusalReason })
        callback(error)
      }),
    onClose: clients.onClose,
    onRcptTo: createOnRcptTo(config, {
      lookup: createInboxLookup(storage, config.inboxCacheMs, clock),
      clients,
      storage: createStorageGuard(config, storage),
      refused: (reason) => metrics.refused.inc({ reason }),
      guesses,
      issued,
      faults,
      log,
      clock,
    }),
    onData: createOnData(config, pipeline, metrics, inflight, {
      faults,
      log,
      clock,
      disconnect: (session) => [...server.connections].find((c) => c.id === session.id)?._socket.destroy(),
    }),
  })
  server.on('error', (error) => console.error('[smtp] server error:', error.message))
  // Before the listener below: a balanced connection's header is read before anything else looks at its socket.
  const proxy = config.proxyProtocol
    ? acceptProxyProtocol(server, { ...config.proxyProtocol, maxPending: config.maxClients, name: config.mailDomains[0]! }, (reason) => metrics.refused.inc({ reason }))
    : null
  // The idle timeout does not stop a client that sends a byte now and then; this caps a connection's whole life.
  // A message cut off this way never got its 250, so the sender retries it; nothing acknowledged is lost.
  // The client is told why (421, as for the idle timeout) and smtp-server half-closes the socket, destroying it if the
  // client does not close its side within a few seconds.
  server.server.on('connection', (socket) => {
    coalesceReplies(socket)
    const timer = setTimeout(() => {
      const connection = [...server.connections].find((c) => c._socket === socket)
      if (connection) connection.send(421, `${config.mailDomains[0]} Session time limit reached, closing connection`)
      else socket.destroy()
    }, config.maxSessionMs)
    timer.unref()
    metrics.sessionsOpened.inc()
    metrics.sessionsOpen.inc()
    socket.once('close', () => {
      clearTimeout(timer)
      metrics.sessionsOpen.dec()
    })
  })

  // Each STARTTLS takes the server's current context, so a replaced certificate serves the next session on.
  let stopWatching = () => {}
  if (config.tls) {
    stopWatching = watchKeyPair(config.tls, config.tlsReloadCheckMs, (pair) => server.updateSecureContext(pair), {
      info: (line) => console.log(line),
      error: (line) => console.error(line),
    })
  }

  return {
    server,
    tlsStatus: keyPair
      ? `[smtp] STARTTLS offered with ${describeCertificate(keyPair.cert)}`
      : '[smtp] no TLS certificate (SMTP_TLS_CERT, SMTP_TLS_KEY): mail arrives in clear text',
    metrics,
    flushDeliveryLog: () => deliveryLog.flush(),
    listen: async () => {
      await pipeline.ready
      return new Promise<number>((resolve, reject) => {
        server.server.once('error', reject)
        server.listen(config.port, config.host, () => {
          server.server.off('error', reject)
          resolve((server.server.address() as AddressInfo).port)
        })
      })
    },
    close: async () => {
      stopWatching()
      guesses.close()
      proxy?.close()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await pipeline.close()
      faults.close()
      await deliveryLog.close()
    },
  }
}
