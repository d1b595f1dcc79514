/**
 * Large inboxes: the first page of inboxes holding 20,000 messages each, polled against the real api process.
 * Targets (issue 12): first page p99 ≤ 20 ms and ≤ 64 KB on the wire; api RSS flat while such inboxes are polled.
 *
 * The inboxes are filled straight into the SQLite file (as mail-ingest stores them, derived columns included, from
 * @tempbox/mail-derive), then autocannon (in this process) asks, for BENCH_SECONDS each:
 *   - first page as the 10-second poll asks it (cached after the first read), compressed as browsers ask;
 *   - the same with If-None-Match (what a browser sends once it has the page): 304, no body;
 *   - a first page built on every request (`before` beyond the newest id: same content, never cached) — the cost
 *     right after a new message invalidated the cache;
 *   - random deeper pages (`before` anywhere in the inbox), never cached.
 * RSS of the api is sampled every 500 ms throughout.
 *
 *   pnpm bench inbox-large
 *   BENCH_SECONDS=10 …  BENCH_INBOXES=3 …  BENCH_MESSAGES=20000 …  BENCH_RATE=500 …  BENCH_CONNECTIONS=10 …  BENCH_NO_WRITE=1 …
 *
 * Any answer other than the one asked for (2xx, or the 304 of the If-None-Match row), and any request left without
 * one, fails the run before a figure is written: a fast error is no measurement of a page.
 */
import { request } from 'node:http'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'
import { createDb } from '@tempbox/db'
import { deriveMessage } from '@tempbox/mail-derive'
import { startApiStack } from './lib/api-stack.js'
import { BenchRun } from './lib/bench-run.js'
import { writeBenchmarkSection } from './lib/benchmarks-md.js'
import { treeRssMb } from './lib/processes.js'

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const DOMAIN = 'bench.tempbox.local'
const bench = new BenchRun('inbox-large')
const SECONDS = bench.number('BENCH_SECONDS', 10)
const INBOXES = bench.number('BENCH_INBOXES', 3)
const MESSAGES = bench.number('BENCH_MESSAGES', 20000)
const RATE = bench.number('BENCH_RATE', 500)
const CONNECTIONS = bench.number('BENCH_CONNECTIONS', 10)
const P99_TARGET_MS = 20
const BYTES_TARGET = 64 * 1024

/** Sign-up mails of a few shapes, each with a text and an HTML part, as throwaway inboxes mostly hold. */
function mail(i: number) {
  const code = String(100000 + (i % 900000))
  const text = `Hi there,\n\nYour verification code is ${code}. It expires in 10 minutes.\n\nOr confirm with this link: https://app.example.com/verify?token=${i}abcdef\n\nIf you didn't sign up, ignore this email.\n\n— The Example team, 1 Market St, San Francisco\n${'Some footer text about privacy and unsubscribing. '.repeat(40)}`
  const html = `<html><body><p>Hi there,</p><p>Your verification code is <b>${code}</b>.</p><p><a href="https://app.example.com/verify?token=${i}abcdef">Confirm your email</a></p>${'<p>Some footer text about privacy and unsubscribing.</p>'.repeat(40)}</body></html>`
  return { subject: `Confirm your account at Example (${i})`, text, html }
}

async function fill(apiUrl: string, dbPath: string): Promise<string[]> {
  const addresses: string[] = []
  const { db, sqlite } = createDb({ path: dbPath })
  // As ingest stores a message: its content once, then the inbox's row pointing at it.
  const insertContent = sqlite.prepare(
    `insert into message_content (recipients, headers, text, html, raw, derived_version, preview, html_text, codes, links, safe_html,
       has_remote_content, html_withheld) values (?, '[]', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  )
  const insertMessage = sqlite.prepare(
    `insert into message (inbox_id, message_content_id, from_name, from_address, subject, sent_at, received_at, size, attachment_count)
     values (?, ?, 'Example', 'hello@example.com', ?, ?, ?, ?, 0)`,
  )
  // Deriving costs a few ms a message: a few shapes are derived and shared (the subjects stay distinct).
  const derived = Array.from({ length: 50 }, (_, i) => {
    const m = mail(i)
    return deriveMessage({ subject: m.subject, text: m.text, html: m.html, contentIds: [] })
  })
  for (let n = 0; n < INBOXES; n++) {
    const res = await fetch(`${apiUrl}/api/email/generate`, { method: 'POST' })
    if (!res.ok) throw new Error(`POST /api/email/generate answered ${res.status}: ${await res.text()}`)
    const { email } = (await res.json()) as { email: string }
    addresses.push(email)
    const inbox = await db.selectFrom('inbox').select('id').where('address', '=', email).executeTakeFirstOrThrow()
    const now = Date.now()
    sqlite.transaction(() => {
      for (let i = 0; i < MESSAGES; i++) {
        const m = mail(i)
        const d = derived[i % derived.length]!
        const raw = Buffer.from(`From: Example <hello@example.com>\r\nSubject: ${m.subject}\r\n\r\n${m.text}\r\n`)
        const at = now - (MESSAGES - i) * 1000
        const content = insertContent.run(
          JSON.stringify([{ name: '', address: email }]), m.text, m.html, raw,
          d.version, d.preview, d.htmlText, JSON.stringify(d.codes), JSON.stringify(d.links), d.safeHtml, d.hasRemoteContent ? 1 : 0, d.htmlWithheld,
        )
        insertMessage.run(inbox.id, Number(content.lastInsertRowid), m.subject, at, at, raw.length + m.html.length)
      }
    })()
  }
  await db.destroy()
  return addresses
}

function rawGet(url: string, headers: Record<string, string>): Promise<{ status: number; etag: string; body: Buffer }> {
  return new Promise((ok, fail) => {
    request(url, { headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => ok({ status: res.statusCode ?? 0, etag: String(res.headers.etag ?? ''), body: Buffer.concat(chunks) }))
    })
      .once('error', fail)
      .end()
  })
}

interface Measure {
  name: string
  requests: number
  perSecond: number
  p50: number
  p99: number
  max: number
  status: string
  bodyBytes: number
}

const stack = await startApiStack(REPO_ROOT, { withIngest: false, domain: DOMAIN })
const pid = stack.api.child.pid!
const rss: { at: number; mb: number; phase: string }[] = []
let phase = 'start'
const t0 = Date.now()
const sampler = setInterval(() => rss.push({ at: (Date.now() - t0) / 1000, mb: treeRssMb(pid), phase }), 500)
const measures: Measure[] = []
/** Answers other than the one each row asks for, and requests left without an answer, by row. */
const failures: string[] = []
const expectStatus = (what: string, got: number, want: number) => {
  if (got !== want) failures.push(`${what}: ${got}, not ${want}`)
}
try {
  phase = 'fill'
  const fillStart = Date.now()
  const addresses = await fill(stack.apiUrl, stack.dbPath)
  console.log(`[inbox-large] filled ${INBOXES} inboxes × ${MESSAGES} messages in ${((Date.now() - fillStart) / 1000).toFixed(1)} s`)
  const rssAfterFill = treeRssMb(pid)
  const base = (a: string) => `/api/email/${encodeURIComponent(a)}`
  const browser = { 'accept-encoding': 'gzip, deflate, br' }

  // Sizes and validators, as a browser gets them (node:http, so compressed bodies are counted as sent).
  const etags: string[] = []
  let total = 0
  let jsonBytes = 0
  let brBytes = 0
  let notModified = { status: 0, bytes: -1 }
  for (const a of addresses) {
    const plain = await rawGet(`${stack.apiUrl}${base(a)}`, {})
    expectStatus('first page', plain.status, 200)
    const json = JSON.parse(plain.body.toString()) as { total: number; messages: unknown[] }
    if (json.messages.length !== 50) throw new Error(`expected a first page of 50, got ${json.messages.length}`)
    total = json.total
    jsonBytes = plain.body.length
    const br = await rawGet(`${stack.apiUrl}${base(a)}`, browser)
    expectStatus('first page, br', br.status, 200)
    brBytes = br.body.length
    etags.push(br.etag)
    const again = await rawGet(`${stack.apiUrl}${base(a)}`, { ...browser, 'if-none-match': br.etag })
    expectStatus('first page, If-None-Match', again.status, 304)
    notModified = { status: again.status, bytes: again.body.length }
  }
  if (total !== MESSAGES) throw new Error(`expected total ${MESSAGES}, got ${total}`)

  const run = async (name: string, requests: autocannon.Request[], headers: Record<string, string>, expect: number): Promise<void> => {
    phase = name
    const result = await autocannon({
      url: stack.apiUrl,
      connections: CONNECTIONS,
      duration: SECONDS,
      overallRate: RATE,
      headers,
      requests,
    })
    const statuses = Object.entries(result.statusCodeStats ?? {}).map(([code, v]) => `${code}×${v.count}`).join(' ')
    const bodyBytes = result.throughput.total / Math.max(1, result.requests.total)
    measures.push({
      name,
      requests: result.requests.total,
      perSecond: result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      max: result.latency.max,
      status: statuses,
      bodyBytes,
    })
    if (result.requests.total === 0) console.log('[inbox-large] no answers:', JSON.stringify({ errors: result.errors, timeouts: result.timeouts, requests }).slice(0, 400))
    const unexpected = result.non2xx - (expect === 304 ? (result.statusCodeStats?.['304']?.count ?? 0) : 0)
    if (unexpected || result.errors) failures.push(`${name}: ${unexpected} answers other than ${expect} (${statuses}), ${result.errors} requests without an answer`)
    console.log(
      `[inbox-large] ${name}: ${result.requests.average.toFixed(0)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms, ${(bodyBytes / 1024).toFixed(1)} KB/response incl. headers, ${statuses}${unexpected || result.errors ? `, ${unexpected} unexpected answers, ${result.errors} errors` : ''}`,
    )
  }

  // Warm-up: every inbox's first page into the cache, JIT warm.
  await run('warm-up', addresses.map((a) => ({ path: base(a) })), browser, 200)
  measures.pop()
  const rssAfterWarm = treeRssMb(pid)

  await run('first page, cached (as the 10 s poll asks, br)', addresses.map((a) => ({ path: base(a) })), browser, 200)
  await run(
    'first page, If-None-Match → 304',
    addresses.map((a, i) => ({ path: base(a), headers: { ...browser, 'if-none-match': etags[i]! } })),
    browser,
    304,
  )
  await run('first page, built on every request (not cached)', addresses.map((a) => ({ path: `${base(a)}?before=999999999999` })), browser, 200)
  const maxId = MESSAGES * INBOXES
  await run(
    'random older pages (not cached)',
    addresses.map((a) => ({
      path: base(a),
      setupRequest: (req: autocannon.Request) => ({ ...req, path: `${base(a)}?before=${1 + Math.floor(Math.random() * maxId)}` }),
    })),
    browser,
    200,
  )
  await run('first page, cached, again (RSS after all of the above)', addresses.map((a) => ({ path: base(a) })), browser, 200)
  phase = 'end'
  const rssEnd = treeRssMb(pid)
  clearInterval(sampler)
  const polled = rss.filter((s) => s.at > 0 && s.phase !== 'fill' && s.phase !== 'start' && s.phase !== 'warm-up')
  const rssMax = Math.max(...polled.map((s) => s.mb))
  const rssMin = Math.min(...polled.map((s) => s.mb))
  console.log(
    `[inbox-large] api RSS: ${rssAfterFill.toFixed(0)} MB after filling, ${rssAfterWarm.toFixed(0)} MB after warm-up, ${rssMin.toFixed(0)}–${rssMax.toFixed(0)} MB while polled, ${rssEnd.toFixed(0)} MB at the end`,
  )

  if (failures.length > 0) throw new Error(`[inbox-large] answers other than those asked for, so no figures are written:\n${failures.join('\n')}`)
  const firstCached = measures[0]!
  const wire = jsonBytes
  if (!process.env.BENCH_NO_WRITE) {
    writeBenchmarkSection(
      REPO_ROOT,
      '## Large inboxes',
      [
        bench.measured(),
        '',
        `${INBOXES} inboxes of ${MESSAGES.toLocaleString('en-US')} messages each (sign-up mails with a text and an HTML part, ~3 KB text, derived columns stored as ingest stores them), in the real api (one process, \`APP_ENV=production\`). autocannon (in the bench process, on the same 2 cores) sends ${RATE} requests/s in all over ${CONNECTIONS} keep-alive connections for ${SECONDS} s per row, cycling over the ${INBOXES} inboxes, with \`Accept-Encoding: gzip, deflate, br\`. Targets: first page p99 ≤ ${P99_TARGET_MS} ms and ≤ 64 KB; api RSS flat while polled.`,
        '',
        '| request | req/s | p50 | p99 | max | answers | bytes per response (headers included) |',
        '|---|---:|---:|---:|---:|---|---:|',
        ...measures.map((m) => `| ${m.name} | ${m.perSecond.toFixed(0)} | ${m.p50} ms | ${m.p99} ms | ${m.max} ms | ${m.status} | ${(m.bodyBytes / 1024).toFixed(1)} KB |`),
        '',
        `First page size: ${(wire / 1024).toFixed(1)} KB of JSON uncompressed, ${(brBytes / 1024).toFixed(1)} KB as brotli (50 summaries; the rest of the ${MESSAGES.toLocaleString('en-US')} messages is reached with \`before\` cursors); with If-None-Match the answer is ${notModified.status} with ${notModified.bytes} bytes of body.`,
        '',
        `api RSS: ${rssAfterFill.toFixed(0)} MB after filling, ${rssAfterWarm.toFixed(0)} MB after the warm-up, between ${rssMin.toFixed(0)} and ${rssMax.toFixed(0)} MB during the ${measures.length} measured rows (${(measures.length * SECONDS).toFixed(0)} s of polling, ${measures.reduce((s, m) => s + m.requests, 0).toLocaleString('en-US')} requests), ${rssEnd.toFixed(0)} MB at the end.`,
        '',
        `Against the targets in this run: first page p99 ${firstCached.p99} ms cached (${firstCached.p99 <= P99_TARGET_MS ? '**met**' : '**not met**'}), ${measures[2]!.p99} ms when built on every request (${measures[2]!.p99 <= P99_TARGET_MS ? '**met**' : '**not met**'}); size ${(wire / 1024).toFixed(1)} KB uncompressed (${wire <= BYTES_TARGET ? '**met**' : '**not met**'}).`,
      ].join('\n'),
    )
  }
} finally {
  clearInterval(sampler)
  await stack.stop()
}
