// A webhook receiver in a process of its own (as a customer's system would be), so its CPU is measured apart from the
// load generator's and its event loop does not delay the SMTP clients. Answers 200 at once. Usage: forked with IPC
// (and tsx, for @tempbox/client); prints its URL; the parent sends {secret: {address, secret}} for each webhook set,
// {watch: true|false}, {count: true} and {check: true}. While watched, every arrival is sent back as {subject, at} (at:
// a wall-clock ms, comparable across processes); otherwise it only counts arrivals.
import { createServer } from 'node:http'
import { verifyWebhookSignature } from '@tempbox/client'

let received = 0
let watch = false
const secrets = new Map()
/** Deliveries not yet checked: kept as they came, and checked when asked, outside the rounds' CPU count. */
let unchecked = []
const deliveryIds = new Set()
const now = () => performance.timeOrigin + performance.now()
// What a fast receiver is: a raw node:http server that answers 200 with no body. The body is only parsed while
// watched, for the latency run; in the throughput rounds it is kept unread, so the receiver's CPU is what any HTTP
// server pays per request and not this bench's JSON work or the signature check's.
const server = createServer((req, res) => {
  const chunks = []
  req.on('data', (c) => chunks.push(c))
  req.on('end', () => {
    const at = now()
    received++
    res.writeHead(200).end()
    const body = Buffer.concat(chunks)
    unchecked.push({ headers: req.headers, body })
    if (watch) process.send({ subject: JSON.parse(body.toString('utf8')).message.subject, at })
  })
})

/** Every delivery since the last check: its signature against its inbox's secret, and whether its id came before. */
async function check() {
  const batch = unchecked
  unchecked = []
  let bad = 0
  let duplicates = 0
  for (const { headers, body } of batch) {
    const text = body.toString('utf8')
    let address
    try {
      address = JSON.parse(text).address
    } catch {
      address = undefined
    }
    const secret = secrets.get(address)
    if (secret === undefined || !(await verifyWebhookSignature({ secret, body: text, headers }))) bad++
    const id = headers['tempbox-delivery']
    if (deliveryIds.has(id)) duplicates++
    else deliveryIds.add(id)
  }
  return { checked: batch.length, bad, duplicates }
}

process.on('message', (m) => {
  if ('secret' in m) secrets.set(m.secret.address, m.secret.secret)
  if ('watch' in m) watch = m.watch
  if ('count' in m) process.send({ received })
  if ('check' in m) void check().then((result) => process.send(result))
})
process.on('disconnect', () => process.exit(0))
server.listen(0, '127.0.0.1', () => process.send({ url: `http://127.0.0.1:${server.address().port}/hook` }))
