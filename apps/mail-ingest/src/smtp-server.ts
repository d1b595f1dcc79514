import type { AddressInfo } from 'node:net'
import type { Db } from '@tempbox/db'
import { SMTPServer } from 'smtp-server'
import type { Config } from './config.js'
import { createOnData } from './on-data.js'
import { createInboxLookup, createOnRcptTo } from './on-rcpt-to.js'
import { createIngestPipeline } from './ingest-pipeline.js'
import type { SqliteHandle } from './store-message.js'

export interface IngestServer {
  server: SMTPServer
  /** Starts listening; resolves with the bound port (useful with port 0). */
  listen: () => Promise<number>
  /** Stops accepting, lets open sessions finish (up to closeTimeoutMs) and flushes queued writes. */
  close: () => Promise<void>
}

/** Wires smtp-server to our RCPT and DATA handlers. */
export function createSmtpServer({ db, sqlite, config }: { db: Db; sqlite: SqliteHandle; config: Config }): IngestServer {
  const pipeline = createIngestPipeline(db, sqlite, config)
  const server = new SMTPServer({
    name: config.mailDomains[0],
    banner: 'Tempbox mail ingest',
    size: config.maxMessageBytes,
    // Anonymous inbound mail only: no AUTH, and no STARTTLS for the local, loopback-bound default.
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    // A reverse DNS lookup per connection costs time and reveals nothing we keep.
    disableReverseLookup: true,
    maxClients: config.maxClients,
    socketTimeout: config.socketTimeoutMs,
    closeTimeout: config.closeTimeoutMs,
    logger: false,
    onRcptTo: createOnRcptTo(config, createInboxLookup(db, config.inboxCacheMs)),
    onData: createOnData(config, pipeline),
  })
  server.on('error', (error) => console.error('[smtp] server error:', error.message))
  // The idle timeout does not stop a client that sends a byte now and then; this caps a connection's whole life.
  // A message cut off this way never got its 250, so the sender retries it; nothing acknowledged is lost.
  // The client is told why (421, as for the idle timeout) and smtp-server half-closes the socket, destroying it if the
  // client does not close its side within a few seconds.
  server.server.on('connection', (socket) => {
    const timer = setTimeout(() => {
      const connection = [...server.connections].find((c) => c._socket === socket)
      if (connection) connection.send(421, `${config.mailDomains[0]} Session time limit reached, closing connection`)
      else socket.destroy()
    }, config.maxSessionMs)
    timer.unref()
    socket.once('close', () => clearTimeout(timer))
  })

  return {
    server,
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
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await pipeline.close()
    },
  }
}
