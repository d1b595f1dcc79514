// The ceiling of Node's HTTP stack on this machine: answers every request with the same stored response (body and
// every header as the real API sent them, in order), doing no work of its own. It answers a matching If-None-Match
// with the api's 304. Usage: node bare-http-server.mjs <port> <response.json>
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'

const [port, file] = process.argv.slice(2)
const { keepAliveSeconds, etag, headers, body, notModified } = JSON.parse(readFileSync(file, 'utf8'))
const bytes = Buffer.from(body, 'base64')
const server = createServer((req, res) => {
  if (etag && req.headers['if-none-match'] === etag) {
    res.writeHead(304, notModified)
    res.end()
    return
  }
  res.writeHead(200, headers)
  res.end(bytes)
})
// The api's keep-alive timeout, which its Keep-Alive header states: the same bytes, the same connection behaviour.
if (keepAliveSeconds) server.keepAliveTimeout = keepAliveSeconds * 1000
server.listen(Number(port), '127.0.0.1', () => console.log('bare http listening'))
// A normal exit on SIGTERM, so a `--cpu-prof` of the reference (BENCH_BARE_NODE_ARGS) is written.
process.once('SIGTERM', () => process.exit(0))
