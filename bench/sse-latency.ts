/**
 * Push latency: time from the SMTP `250` (the message is committed) to the message arriving on an open
 * Server-Sent Events stream of its inbox, over the real mail-ingest and api processes on one SQLite file.
 * Target: p50 ≤ 100 ms over 1,000 messages. Idle streams on other inboxes are kept open meanwhile, so the
 * fan-out is exercised as in production (one watcher, many subscribers).
 *
 *   pnpm bench sse            (or: cd bench && pnpm exec tsx sse-latency.ts)
 *   BENCH_MESSAGES=200 …      fewer messages (and a fifth as many long polls, or BENCH_POLLS);  BENCH_IDLE_STREAMS=0 …  no idle streams;  BENCH_NO_WRITE=1 … don't touch BENCHMARKS.md
 *   BENCH_POSTGRES=1 …        both processes on a throwaway PostgreSQL (@tempbox/db's test harness) instead of the SQLite
 *                             file: the api hears ingest's commits by LISTEN/NOTIFY, as an api node hears any ingest node;
 *                             writes its own section
 */
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createTestDatabase, startPostgres } from '@tempbox/db/testing/postgres'
import { generateAddress as generate, startApiStack } from './lib/api-stack.js'
import { BenchRun } from './lib/bench-run.js'
import { percentile, writeBenchmarkSection } from './lib/benchmarks-md.js'
import { buildMessage, SmtpClient } from './lib/smtp-client.js'

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const DOMAIN = 'bench.tempbox.local'
const bench = new BenchRun('sse')
const MESSAGES = bench.number('BENCH_MESSAGES', 1000)
const IDLE_STREAMS = bench.number('BENCH_IDLE_STREAMS', 200)
const POLLS = bench.number('BENCH_POLLS', Math.max(1, Math.round(MESSAGES / 5)))

/** Opens a stream and calls `onMessage(subject, arrivedAt)` for each `message` event. */
async function openStream(url: string, onMessage: (subject: string, at: number) => void): Promise<AbortController> {
  const controller = new AbortController()
  const res = await fetch(url, { signal: controller.signal })
  if (!res.ok || !res.body) throw new Error(`stream: ${res.status}`)
  const reader = res.body.getReader()
  const decoder = new TextDecoder()
  let buffer = ''
  let ready!: () => void
  const isReady = new Promise<void>((r) => (ready = r))
  void (async () => {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true as const }))
      if (done) return
      const at = performance.now()
      buffer += decoder.decode(value, { stream: true })
      let cut: number
      while ((cut = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, cut)
        buffer = buffer.slice(cut + 2)
        if (block.includes('event: ready')) ready()
        if (!block.includes('event: message')) continue
        const data = /^data: (.*)$/m.exec(block)?.[1]
        if (data) onMessage((JSON.parse(data) as { message: { subject: string } }).message.subject, at)
      }
    }
  })()
  await isReady
  return controller
}

const ON_POSTGRES = bench.flag('BENCH_POSTGRES')
const postgres = ON_POSTGRES ? await startPostgres() : null
const env = postgres ? { DATABASE_URL: await createTestDatabase(postgres.url, 'sse') } : undefined
const stack = await startApiStack(REPO_ROOT, { withIngest: true, domain: DOMAIN, env }).catch(async (err: unknown) => {
  await postgres?.stop()
  throw err
})
const controllers: AbortController[] = []
try {
  const address = await generate(stack.apiUrl)
  for (let i = 0; i < IDLE_STREAMS; i++) {
    controllers.push(await openStream(`${stack.apiUrl}/api/email/${await generate(stack.apiUrl)}/events`, () => undefined))
  }
  const arrived = new Map<string, number>()
  let notify: (() => void) | null = null
  controllers.push(
    await openStream(`${stack.apiUrl}/api/email/${address}/events`, (subject, at) => {
      arrived.set(subject, at)
      notify?.()
    }),
  )

  const client = await SmtpClient.open(stack.smtpPort)
  const acked = new Map<string, number>()
  const started = performance.now()
  for (let i = 0; i < MESSAGES; i++) {
    const subject = `sse-${i}`
    const reply = await client.send('bench@sender.test', address, buildMessage(2048, 'bench@sender.test', address, subject))
    if (!reply.startsWith('250')) throw new Error(`message ${i}: ${reply}`)
    acked.set(subject, performance.now())
    // One message in flight at a time, as a sign-up flow sends: the next goes out once this one has arrived.
    if (!arrived.has(subject)) await new Promise<void>((r) => (notify = r))
    notify = null
  }
  const seconds = (performance.now() - started) / 1000

  // Long poll: the same path as a CI job waiting for its verification mail. The poll is open (since = the newest id)
  // before the mail goes out, and the time is taken from the 250 to the answer.
  const pollLatencies: number[] = []
  for (let i = 0; i < POLLS; i++) {
    const subject = `poll-${i}`
    const newest = (await (await fetch(`${stack.apiUrl}/api/email/${address}`)).json()) as { messages: { id: string }[] }
    const since = Math.max(0, ...newest.messages.map((m) => Number(m.id)))
    let answeredAt = 0
    const polled = fetch(`${stack.apiUrl}/api/email/${address}/wait?timeout=30&since=${since}`).then(async (res) => {
      answeredAt = performance.now()
      return (await res.json()) as { message: { subject: string } | null }
    })
    const reply = await client.send('bench@sender.test', address, buildMessage(2048, 'bench@sender.test', address, subject))
    const ackedAt = performance.now()
    if (!reply.startsWith('250')) throw new Error(`poll message ${i}: ${reply}`)
    const body = await polled
    if (body.message?.subject !== subject) throw new Error(`poll ${i} answered ${JSON.stringify(body.message?.subject)}, not ${subject}`)
    // An answer before the 250 reached us (the commit is seen before the reply travels) counts as 0.
    pollLatencies.push(Math.max(0, answeredAt - ackedAt))
  }
  pollLatencies.sort((a, b) => a - b)
  await client.quit()

  const latencies = [...acked].map(([subject, at]) => arrived.get(subject)! - at).sort((a, b) => a - b)
  const p50 = percentile(latencies, 50)
  const p99 = percentile(latencies, 99)
  const max = latencies[latencies.length - 1]!
  const mean = latencies.reduce((a, b) => a + b, 0) / latencies.length
  console.log(`[sse] ${latencies.length} messages in ${seconds.toFixed(1)} s: p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${max.toFixed(1)} ms, mean ${mean.toFixed(1)} ms (${IDLE_STREAMS} idle streams open)`)
  const pollP50 = percentile(pollLatencies, 50)
  const pollP99 = percentile(pollLatencies, 99)
  const pollMax = pollLatencies[pollLatencies.length - 1]!
  console.log(`[long poll] ${pollLatencies.length} waits: p50 ${pollP50.toFixed(1)} ms, p99 ${pollP99.toFixed(1)} ms, max ${pollMax.toFixed(1)} ms after the 250`)

  if (!process.env.BENCH_NO_WRITE) {
    writeBenchmarkSection(
      REPO_ROOT,
      ON_POSTGRES ? '## SSE push latency on PostgreSQL (ingest node to api node)' : '## SSE push latency',
      [
        bench.measured(),
        '',
        `Time from the SMTP \`250\` (message committed by mail-ingest) to the message event read from an open \`/api/email/{address}/events\` stream, ${latencies.length} messages of 2 KB sent one after another over real SMTP, with ${IDLE_STREAMS} other streams open on other inboxes. Target: p50 ≤ 100 ms.`,
        '',
        '| messages | p50 | p99 | max | mean |',
        '|---:|---:|---:|---:|---:|',
        `| ${latencies.length} | ${p50.toFixed(1)} ms | ${p99.toFixed(1)} ms | ${max.toFixed(1)} ms | ${mean.toFixed(1)} ms |`,
        '',
        `Long poll (\`GET /api/email/{address}/wait?since=<newest id>\`, opened before each mail is sent), time from the 250 to the answer. Target: under 1 s.`,
        '',
        '| waits | p50 | p99 | max |',
        '|---:|---:|---:|---:|',
        `| ${pollLatencies.length} | ${pollP50.toFixed(1)} ms | ${pollP99.toFixed(1)} ms | ${pollMax.toFixed(1)} ms |`,
        '',
        ON_POSTGRES
          ? 'How: both processes store to one PostgreSQL (durable: fsync and synchronous_commit on), as separate nodes would. The message INSERT of mail-ingest\'s transaction NOTIFYs the new ids, delivered on commit to the api\'s listening connection; the api then reads those messages and fans them out by inbox to every stream and long poll. No polling tick: the added latency is the notification, one query, JSON and the loopback. Two api nodes behave the same (each holds its own listening connection): tests/integration/multi-node.test.ts.'
          : 'How: mail-ingest is another process, so the api notices commits by reading `PRAGMA data_version` on a connection of its own every 25 ms (a few µs when nothing changed), then reads only the messages with an id above the last one seen and fans them out by inbox to every stream and long poll: one watcher for all clients. The 25 ms tick bounds the added latency (≈ 12 ms on average); the rest is the query, JSON and the loopback.',
      ].join('\n'),
    )
  }
} finally {
  for (const c of controllers) c.abort()
  await stack.stop()
  await postgres?.stop()
}
