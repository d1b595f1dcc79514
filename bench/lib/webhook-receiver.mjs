// A webhook receiver in a process of its own (as a customer's system would be), so its CPU is measured apart from the
// load generator's and its event loop does not delay the SMTP clients. Answers 200 at once. Usage: forked with IPC;
// prints its URL; the parent sends {watch: true|false} and {count: true}. While watched, every arrival is sent back
// as {subject, at} (at: a wall-clock ms, comparable across processes); otherwise it only counts arrivals.
import { createServer } from 'node:http'

let received = 0
let watch = false
const now = () => performance.timeOrigin + performance.now()
// What a fast receiver is: a raw node:http server that answers 200 with no body. The body is only read (and parsed)
// while watched, for the latency run; in the throughput rounds it is let through unread, so the receiver's CPU is
// what any HTTP server pays per request and not this bench's JSON work.
const server = createServer((req, res) => {
  if (!watch) {
    received++
    req.resume()
    res.writeHead(200).end()
    return
  }
  const chunks = []
  req.on('data', (c) => chunks.push(c))
  req.on('end', () => {
    const at = now()
    received++
    res.writeHead(200).end()
    const subject = JSON.parse(Buffer.concat(chunks).toString('utf8')).message.subject
    process.send({ subject, at })
  })
})
process.on('message', (m) => {
  if ('watch' in m) watch = m.watch
  if ('count' in m) process.send({ received })
})
process.on('disconnect', () => process.exit(0))
server.listen(0, '127.0.0.1', () => process.send({ url: `http://127.0.0.1:${server.address().port}/hook` }))
