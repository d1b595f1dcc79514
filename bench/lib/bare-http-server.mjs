// The ceiling of Node's HTTP stack on this machine: answers every request with the same stored response (body and
// headers captured from the real API), doing no work of its own. With an ETag (and `notModified` headers) it answers
// a matching If-None-Match with 304, as the api does. Usage: node bare-http-server.mjs <port> <response.json>
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'

const [port, file] = process.argv.slice(2)
const { headers, body, notModified } = JSON.parse(readFileSync(file, 'utf8'))
const bytes = Buffer.from(body, 'base64')
createServer((req, res) => {
  if (notModified && req.headers['if-none-match'] === headers.etag) {
    res.writeHead(304, notModified)
    res.end()
    return
  }
  res.writeHead(200, { ...headers, 'content-length': bytes.length })
  res.end(bytes)
}).listen(Number(port), '127.0.0.1', () => console.log('bare http listening'))
