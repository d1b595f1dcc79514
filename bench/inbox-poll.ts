/**
 * Inbox polling: GET /api/email/{address} throughput and latency with 1,000 concurrent pollers (autocannon,
 * keep-alive connections) on one inbox holding 50 messages, against the real api process.
 * Target: ≥ 10,000 GET/s with p99 ≤ 50 ms on our 2 cores (load generator on the same cores).
 *
 *   pnpm bench inbox          (or: cd bench && pnpm exec tsx inbox-poll.ts)
 *   BENCH_SECONDS=10 …  BENCH_CONNECTIONS=1000 …  BENCH_NO_WRITE=1 …
 */
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'
import { createDb } from '@tempbox/db'
import { startApiStack } from './lib/api-stack.js'
import { machineLine, writeBenchmarkSection } from './lib/benchmarks-md.js'
import { cpuMs, rssMb } from './lib/processes.js'

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const DOMAIN = 'bench.tempbox.local'
const SECONDS = Number(process.env.BENCH_SECONDS ?? '20')
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? '1000')
const WORKERS = Number(process.env.BENCH_WORKERS ?? '1')

/** A sign-up style mail: a short text part and an HTML part, as most messages in a throwaway inbox are. */
function message(i: number) {
  const text = `Hi there,\n\nYour verification code is ${100000 + i}. It expires in 10 minutes.\n\nOr confirm with this link: https://app.example.com/verify?token=${i}abcdef\n\nIf you didn't sign up, ignore this email.\n\n— The Example team, 1 Market St, San Francisco`
  return {
    subject: `Confirm your account (${i})`,
    text,
    html: `<p>Hi there,</p><p>Your verification code is <b>${100000 + i}</b>.</p><p><a href="https://app.example.com/verify?token=${i}abcdef">Confirm</a></p>`,
  }
}

interface Run {
  label: string
  requests: number
  perSecond: number
  p50: number
  p99: number
  non2xx: number
  errors: number
  timeouts: number
  cpuPerRequestUs: number
  bytesPerResponse: number
  apiCpuPercent: number
  apiRssMb: number
}

const stack = await startApiStack(REPO_ROOT, { withIngest: false, domain: DOMAIN })
const runs: Run[] = []
try {
  const res = await fetch(`${stack.apiUrl}/api/email/generate`, { method: 'POST' })
  const { email: address } = (await res.json()) as { email: string }
  const { db } = createDb({ path: stack.dbPath })
  const inbox = await db.selectFrom('inbox').select('id').where('address', '=', address).executeTakeFirstOrThrow()
  const now = Date.now()
  for (let i = 0; i < 50; i++) {
    const m = message(i)
    const raw = Buffer.from(`From: Example <hello@example.com>\r\nSubject: ${m.subject}\r\n\r\n${m.text}\r\n`)
    await db
      .insertInto('message')
      .values({
        inbox_id: inbox.id,
        from_name: 'Example',
        from_address: 'hello@example.com',
        recipients: JSON.stringify([{ name: '', address }]),
        subject: m.subject,
        text: m.text,
        html: m.html,
        sent_at: now - (50 - i) * 60_000,
        received_at: now - (50 - i) * 60_000,
        size: raw.length,
        headers: '[]',
        raw,
      })
      .execute()
  }
  await db.destroy()
  const url = `${stack.apiUrl}/api/email/${address}?refresh=true`
  const check = (await (await fetch(url)).json()) as { messages: unknown[] }
  if (check.messages.length !== 50) throw new Error(`expected 50 messages, got ${check.messages.length}`)

  const scenarios: { label: string; headers: Record<string, string> }[] = [
    { label: 'plain JSON', headers: {} },
    { label: 'browser-like (Accept-Encoding: gzip, br)', headers: { 'accept-encoding': 'gzip, deflate, br' } },
  ]
  for (const scenario of scenarios) {
    // Warm-up: JIT and caches, not counted.
    await autocannon({ url, connections: 100, duration: 2, headers: scenario.headers })
    const pid = stack.api.child.pid!
    const cpuBefore = cpuMs(pid)
    const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers: scenario.headers, workers: WORKERS > 1 ? WORKERS : undefined })
    const cpuAfter = cpuMs(pid)
    const run: Run = {
      label: scenario.label,
      requests: result.requests.total,
      perSecond: result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      non2xx: result.non2xx,
      errors: result.errors,
      timeouts: result.timeouts,
      cpuPerRequestUs: result.requests.total ? ((cpuAfter - cpuBefore) * 1000) / result.requests.total : Number.NaN,
      bytesPerResponse: result.requests.total ? result.throughput.total / result.requests.total : 0,
      apiCpuPercent: ((cpuAfter - cpuBefore) / (SECONDS * 1000)) * 100,
      apiRssMb: rssMb(pid),
    }
    runs.push(run)
    console.log(
      `[inbox-poll] ${run.label}: ${run.perSecond.toFixed(0)} GET/s, p50 ${run.p50} ms, p99 ${run.p99} ms, ${run.non2xx} non-2xx, ${run.errors} errors (${run.timeouts} timeouts), api ${run.cpuPerRequestUs.toFixed(0)} µs CPU/GET, ${(run.bytesPerResponse / 1024).toFixed(1)} KB/response, api CPU ${run.apiCpuPercent.toFixed(0)} %, RSS ${run.apiRssMb.toFixed(0)} MB`,
    )
  }

  if (!process.env.BENCH_NO_WRITE) {
    writeBenchmarkSection(
      REPO_ROOT,
      '## Inbox polling',
      [
        `Measured ${machineLine()}. Command: \`pnpm bench inbox\`.`,
        '',
        `autocannon, ${CONNECTIONS} concurrent keep-alive connections for ${SECONDS} s each, all polling \`GET /api/email/{address}?refresh=true\` of one inbox holding 50 messages (sign-up mails with text and HTML parts), against the real api process (\`APP_ENV=production\`; the polling route logs at \`warn\`, so no access-log line per poll). Target: ≥ 10,000 GET/s with p99 ≤ 50 ms.`,
        '',
        '| requests | GET/s | p50 | p99 | non-2xx | errors (timeouts) | bytes/response | api CPU per GET | api CPU | api RSS |',
        '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
        ...runs.map(
          (r) =>
            `| ${r.label} | ${r.perSecond.toFixed(0)} | ${r.p50} ms | ${r.p99} ms | ${r.non2xx} | ${r.errors} (${r.timeouts}) | ${(r.bytesPerResponse / 1024).toFixed(1)} KB | ${r.cpuPerRequestUs.toFixed(0)} µs | ${r.apiCpuPercent.toFixed(0)} % | ${r.apiRssMb.toFixed(0)} MB |`,
        ),
        '',
        `Against the target: ${runs.every((r) => r.perSecond >= 10_000 && r.p99 <= 50) ? 'met' : '**not met in this run**'}. The api process used ${runs.map((r) => `${r.apiCpuPercent.toFixed(0)} %`).join(' / ')} of one core (Node serves HTTP on one thread; autocannon and whatever else runs on the machine share the other core and this one). Below ~90 % the api was waiting for CPU rather than busy; near 100 % it was saturated. The load-independent figure is the api's CPU per GET (${runs.map((r) => `${r.cpuPerRequestUs.toFixed(0)} µs`).join(' / ')}), i.e. at most about ${runs.map((r) => Math.round(1e6 / r.cpuPerRequestUs).toLocaleString('en-US')).join(' / ')} GET/s for one api process; most of it is Fastify's own per-request work and the socket write (in a profile the listing path itself — address check, \`data_version\` read, cache hit — is a few per cent). Beyond that, polling scales by running more api processes on the same SQLite file, or by clients using the event stream instead of polling.`,
        '',
        'How: the listing of an inbox is built once as a JSON string (plus its compressed forms) and kept until the change watcher sees a commit for that inbox; each poll then costs an address check, a `PRAGMA data_version` read shared by all requests of the same event-loop turn (so the cached copy is never older than the last commit the client could know of) and a write of prepared bytes (brotli or gzip when the client accepts them, as browsers do).',
      ].join('\n'),
    )
  }
} finally {
  await stack.stop()
}
