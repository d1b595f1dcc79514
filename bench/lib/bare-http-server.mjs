// The ceiling of Node's HTTP stack on this machine: answers every request with the same stored response (body and
// headers captured from the real API), doing no work of its own. Usage: node bare-http-server.mjs <port> <response.json>
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'

const [port, file] = process.argv.slice(2)
const { headers, body } = JSON.parse(readFileSync(file, 'utf8'))
const bytes = Buffer.from(body, 'base64')
createServer((_req, res) => {
  res.writeHead(200, { ...headers, 'content-length': bytes.length })
  res.end(bytes)
}).listen(Number(port), '127.0.0.1', () => console.log('bare http listening'))
