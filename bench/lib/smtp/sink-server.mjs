/**
 * The bare smtp-server sink: the same SMTP library mail-ingest is built on (mail-ingest's own copy), accepting every
 * message and discarding it once read, no parsing, no store. What the protocol costs on this machine, for the bench's
 * ratio. Prints its port once listening; stops on SIGTERM.
 */
import { createRequire } from 'node:module'

const require = createRequire(new URL('../../../apps/mail-ingest/package.json', import.meta.url))
const { SMTPServer } = require('smtp-server')
const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ['AUTH', 'STARTTLS'],
  logger: false,
  size: 10 * 1024 * 1024,
  onData(stream, _session, callback) {
    stream.on('data', () => {})
    stream.on('end', () => callback())
  },
})
server.listen(0, '127.0.0.1', () => console.log(`sink listening on ${server.server.address().port}`))
process.once('SIGTERM', () => server.close(() => process.exit(0)))
