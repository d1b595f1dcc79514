/**
 * Inbox polling: GET /api/email/{address} by 1,000 concurrent pollers (keep-alive connections) on one inbox
 * holding 50 messages, against the real api process(es). wrk is the load generator (C, so it leaves the
 * shared cores to the server), on the same 2 cores. Two measurements for each setting:
 *   - saturation: every connection asks again as soon as it has its answer → the most GETs/s the api gives;
 *   - paced at 10,000 GET/s (wrk/paced.lua): the latency a poller sees at the target load.
 * Target: ≥ 10,000 GET/s with p99 ≤ 50 ms.
 *
 * First, and without wrk: the poll answer against bare node:http (bench/lib/poll-ratio.ts): autocannon, 100
 * connections, the cached listing (200, br) and its revalidation (304), api and reference alternating (ABBA); the
 * ratio of their req/s is the target (≥ 0.60 for the 200, ≥ 0.70 for the 304). BENCH_RATIO_ONLY=1 stops after it.
 *
 *   pnpm bench poll           (the wrk part needs wrk: apt-get install wrk; skipped without it)
 *   BENCH_RATIO_SECONDS=5 …  BENCH_RATIO_ROUNDS=4 …  BENCH_RATIO_CONNECTIONS=100 …
 *   BENCH_SECONDS=10 …  BENCH_REPEATS=3 …  BENCH_CONNECTIONS=1000 …  BENCH_RATE=10000 …  BENCH_PROCESSES=1,2,3 …  BENCH_NO_WRITE=1 …
 *   BENCH_POSTGRES=1 …        also API nodes on one throwaway PostgreSQL (@tempbox/db's test harness): BENCH_NODES
 *                             (default 1,2) separate api processes, each its own node with its own listening connection,
 *                             each polled by its own wrk with half the connections and half the rate (what a balancer
 *                             spreading polls would give them); measured between the SQLite settings, in the same run.
 *                             CPU per GET then counts the PostgreSQL server's processes too.
 *   BENCH_POSTGRES=1 BENCH_BASELINE_ROOT=/path/to/other/checkout …  the same PostgreSQL nodes also from that checkout's
 *                             api (on a database of its own on the same server), in turn with this one's: a before/after.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { request } from 'node:http'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createDb, createPostgresDb, insertMessage, type Db } from '@tempbox/db'
import { createTestDatabase, startPostgres, type PostgresServer } from '@tempbox/db/testing/postgres'
import { startApiStack, type ApiStack } from './lib/api-stack.js'
import { machineLine, writeBenchmarkSection } from './lib/benchmarks-md.js'
import { measurePollRatio, type RatioRow } from './lib/poll-ratio.js'
import { freePort, spawnUntil, treeCpuMs, treeRssMb, type Child } from './lib/processes.js'
import { hasWrk, runWrk, type WrkResult } from './lib/wrk.js'

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const DOMAIN = 'bench.tempbox.local'
const SECONDS = Number(process.env.BENCH_SECONDS ?? '10')
const REPEATS = Number(process.env.BENCH_REPEATS ?? '3')
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? '1000')
const RATE = Number(process.env.BENCH_RATE ?? '10000')
const PROCESS_COUNTS = (process.env.BENCH_PROCESSES ?? '1,2,3').split(',').map(Number)
const ON_POSTGRES = Boolean(process.env.BENCH_POSTGRES)
const BASELINE_ROOT = process.env.BENCH_BASELINE_ROOT
const NODE_COUNTS = ON_POSTGRES ? (process.env.BENCH_NODES ?? '1,2').split(',').map(Number) : []
const BENCH_DIR = dirname(fileURLToPath(import.meta.url))
const PACED_SCRIPT = join(BENCH_DIR, 'wrk/paced.lua')

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
  /** Which server: SQLite with its api processes, PostgreSQL with its api nodes, or the bare reference. */
  server: string
  /** An api (not the bare reference). */
  api: boolean
  encoding: string
  load: string
  requests: number
  perSecond: number
  p50: number
  p90: number
  p99: number
  /** Lowest and highest p99 over the repeats. */
  p99Range: [number, number]
  repeats: number
  failures: number
  bytesPerResponse: number
  cpuPerRequestUs: number
  apiCpuPercent: number
  apiRssMb: number
  /** The machine's 1-min load average when the measurement ended (the cores are shared). */
  loadAverage: number
}

async function fillInbox(apiUrl: string, db: Db): Promise<string> {
  const res = await fetch(`${apiUrl}/api/email/generate`, { method: 'POST' })
  const { email: address } = (await res.json()) as { email: string }
  const inbox = await db.selectFrom('inbox').select('id').where('address', '=', address).executeTakeFirstOrThrow()
  const now = Date.now()
  for (let i = 0; i < 50; i++) {
    const m = message(i)
    const raw = Buffer.from(`From: Example <hello@example.com>\r\nSubject: ${m.subject}\r\n\r\n${m.text}\r\n`)
    await insertMessage(db, [inbox.id], {
      content: { recipients: JSON.stringify([{ name: '', address }]), headers: '[]', text: m.text, html: m.html, raw },
      listing: {
        from_name: 'Example',
        from_address: 'hello@example.com',
        subject: m.subject,
        sent_at: now - (50 - i) * 60_000,
        received_at: now - (50 - i) * 60_000,
        size: raw.length,
      },
    })
  }
  return address
}

const RATIO_SECONDS = Number(process.env.BENCH_RATIO_SECONDS ?? '5')
const RATIO_ROUNDS = Number(process.env.BENCH_RATIO_ROUNDS ?? '4')
const RATIO_CONNECTIONS = Number(process.env.BENCH_RATIO_CONNECTIONS ?? '100')

/** One api process on SQLite, as a single node runs it, against bare node:http; written as its own section. */
async function measureRatio(): Promise<void> {
  const stack = await startApiStack(REPO_ROOT, { withIngest: false, domain: DOMAIN, env: { API_PROCESSES: '1' } })
  let rows: RatioRow[]
  try {
    const { db } = createDb({ path: stack.dbPath })
    const address = await fillInbox(stack.apiUrl, db).finally(() => db.destroy())
    rows = await measurePollRatio({
      benchDir: BENCH_DIR,
      apiUrl: stack.apiUrl,
      apiPid: stack.api.child.pid!,
      address,
      connections: RATIO_CONNECTIONS,
      seconds: RATIO_SECONDS,
      rounds: RATIO_ROUNDS,
      log: (line) => console.log(line),
    })
  } finally {
    await stack.stop()
  }
  if (process.env.BENCH_NO_WRITE) return
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length
  const targets: Record<RatioRow['answer'], number> = { '200 cached listing': 0.6, '304 revalidation': 0.7 }
  const listing = rows.find((r) => r.answer === '200 cached listing')!
  const revalidation = rows.find((r) => r.answer === '304 revalidation')!
  // Half the CPU to spare: half the req/s it reaches at saturation (or half a core's worth of answers at the CPU each
  // one cost), each open inbox asking once per 10 s.
  const inboxes = (perSecond: number) => Math.floor((perSecond / 2) * 10 / 1000) * 1000
  const byCpu = (cpuUs: number) => inboxes(1e6 / cpuUs)
  const command = ['BENCH_RATIO_SECONDS', 'BENCH_RATIO_ROUNDS', 'BENCH_RATIO_CONNECTIONS', 'BENCH_RATIO_ONLY'].filter((k) => process.env[k]).map((k) => `${k}=${process.env[k]} `).join('')
  writeBenchmarkSection(
    REPO_ROOT,
    '## Poll answer against bare node:http',
    [
      `Measured ${machineLine()}. Command: \`${command}pnpm bench poll\`.`,
      '',
      `autocannon (in the bench process), ${RATIO_CONNECTIONS} keep-alive connections, \`GET /api/email/{address}\` of one inbox holding 50 messages with \`Accept-Encoding: gzip, deflate, br\` (as browsers ask), against one api process (\`APP_ENV=production\`, SQLite) with the listing cached; for the 304 with its ETag as \`If-None-Match\`. **Reference**: a bare \`node:http\` server (\`bench/lib/bare-http-server.mjs\`) sending the same body with the poll's headers (Content-Type, Content-Encoding, Cache-Control, Vary, ETag) and doing nothing else. ${RATIO_ROUNDS} rounds of ${RATIO_SECONDS} s each, alternating api, reference, reference, api (ABBA), so a change in the shared machine's load falls on both; the ratio is the api's mean req/s over the reference's. Bytes per answer count the status line, every header and the body.`,
      '',
      '| answer | api req/s (each slot) | bare node:http req/s (each slot) | ratio | target | api bytes/answer | bare bytes/answer | api CPU per answer |',
      '|---|---|---|---:|---:|---:|---:|---:|',
      ...rows.map(
        (r) =>
          `| ${r.answer} | ${r.api.map((v) => v.toFixed(0)).join(', ')} (mean ${mean(r.api).toFixed(0)}) | ${r.bare.map((v) => v.toFixed(0)).join(', ')} (mean ${mean(r.bare).toFixed(0)}) | **${r.ratio.toFixed(3)}** | ≥ ${targets[r.answer].toFixed(2)} ${r.ratio >= targets[r.answer] ? '(met)' : '(not met)'} | ${r.apiBytes} | ${r.bareBytes} | ${r.apiCpuUs.toFixed(0)} µs |`,
      ),
      '',
      `**Open inboxes one api process serves** at one poll per 10 s with half its CPU to spare (half the req/s above, × 10 s): about **${inboxes(mean(listing.api)).toLocaleString('en-US')}** if every poll got the whole listing (200), about **${inboxes(mean(revalidation.api)).toLocaleString('en-US')}** when polls revalidate an unchanged inbox (304, what a browser's \`If-None-Match\` gets between new mails). With the load generator sharing the 2 cores, these are floors: counted from the CPU each answer cost instead (half a core's worth of answers), about **${byCpu(listing.apiCpuUs).toLocaleString('en-US')}** (200) and **${byCpu(revalidation.apiCpuUs).toLocaleString('en-US')}** (304).`,
    ].join('\n'),
  )
}

await measureRatio()
if (process.env.BENCH_RATIO_ONLY) process.exit(0)
if (!hasWrk()) {
  console.error('[inbox-poll] the wrk part needs wrk on the PATH (Debian: apt-get install -y wrk): skipped')
  process.exit(0)
}

const ENCODINGS: { label: string; headers: Record<string, string> }[] = [
  { label: 'br (as browsers ask)', headers: { 'Accept-Encoding': 'gzip, deflate, br' } },
  { label: 'plain JSON', headers: {} },
]

/** One response exactly as the api sends it (compressed body included), for the bare reference server. */
function captureResponse(url: string, headers: Record<string, string>): Promise<{ headers: Record<string, string>; body: string }> {
  return new Promise((ok, fail) => {
    request(url, { headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => {
        const kept = ['content-type', 'content-encoding', 'cache-control', 'vary']
        ok({
          headers: Object.fromEntries(kept.filter((k) => res.headers[k]).map((k) => [k, String(res.headers[k])])),
          body: Buffer.concat(chunks).toString('base64'),
        })
      })
    })
      .once('error', fail)
      .end()
  })
}

const runs: Run[] = []

/**
 * Several api nodes are polled at once, each by a wrk of its own with its share of the connections and of the rate:
 * their counts add up, and each latency percentile is the worse node's (the one a poller may get).
 */
async function runWrkOn(urls: string[], options: Omit<Parameters<typeof runWrk>[0], 'url'>, rate?: number): Promise<WrkResult> {
  const each = await Promise.all(
    urls.map((url) =>
      runWrk({
        ...options,
        url,
        connections: Math.round(options.connections / urls.length),
        ...(rate === undefined ? {} : { script: PACED_SCRIPT, env: { WRK_RATE: String(Math.round(rate / urls.length)) } }),
      }),
    ),
  )
  const sum = (pick: (r: WrkResult) => number) => each.reduce((total, r) => total + pick(r), 0)
  const worst = (pick: (r: WrkResult) => number) => Math.max(...each.map(pick))
  return {
    requests: sum((r) => r.requests),
    perSecond: sum((r) => r.perSecond),
    p50: worst((r) => r.p50),
    p90: worst((r) => r.p90),
    p99: worst((r) => r.p99),
    non2xx: sum((r) => r.non2xx),
    socketErrors: sum((r) => r.socketErrors),
    timeouts: sum((r) => r.timeouts),
    bytesPerResponse: each[0]!.bytesPerResponse,
  }
}

/**
 * Warm-up, then saturation and paced load against `urls` (one per api node), with the CPU of the process trees under
 * `pids` (the api processes, and the database server where it is one of its own).
 */
async function measure(server: string, api: boolean, pids: number[], urls: string[], encoding: (typeof ENCODINGS)[number]): Promise<void> {
  const treesCpuMs = () => pids.reduce((total, pid) => total + treeCpuMs(pid), 0)
  // Warm-up: JIT and caches, not counted.
  await runWrkOn(urls, { connections: 100, seconds: 2, headers: encoding.headers })
  for (const load of ['saturation', `paced ${RATE.toLocaleString('en-US')}/s`]) {
    // Tail latency on shared cores swings from run to run: paced load is measured several times and the median kept.
    const repeats = load === 'saturation' ? 1 : REPEATS
    const results: WrkResult[] = []
    const cpuBefore = treesCpuMs()
    for (let i = 0; i < repeats; i++) {
      results.push(await runWrkOn(urls, { connections: CONNECTIONS, seconds: SECONDS, headers: encoding.headers }, load === 'saturation' ? undefined : RATE))
    }
    const cpu = treesCpuMs() - cpuBefore
    const requests = results.reduce((sum, r) => sum + r.requests, 0)
    const median = (pick: (r: WrkResult) => number) => results.map(pick).sort((a, b) => a - b)[Math.floor(results.length / 2)]!
    const p99s = results.map((r) => r.p99)
    const run: Run = {
      server,
      api,
      encoding: encoding.label,
      load,
      requests,
      perSecond: median((r) => r.perSecond),
      p50: median((r) => r.p50),
      p90: median((r) => r.p90),
      p99: median((r) => r.p99),
      p99Range: [Math.min(...p99s), Math.max(...p99s)],
      repeats,
      failures: results.reduce((sum, r) => sum + r.non2xx + r.socketErrors + r.timeouts, 0),
      bytesPerResponse: median((r) => r.bytesPerResponse),
      cpuPerRequestUs: requests ? (cpu * 1000) / requests : Number.NaN,
      apiCpuPercent: (cpu / (repeats * SECONDS * 1000)) * 100,
      apiRssMb: pids.reduce((total, pid) => total + treeRssMb(pid), 0),
      loadAverage: loadavg()[0]!,
    }
    runs.push(run)
    console.log(
      `[inbox-poll] ${server}, ${run.encoding}, ${run.load}: ${run.perSecond.toFixed(0)} GET/s, p50 ${run.p50.toFixed(1)} ms, p90 ${run.p90.toFixed(1)} ms, p99 ${run.p99.toFixed(1)} ms (${run.p99Range.map((v) => v.toFixed(1)).join('–')} over ${run.repeats}), ${run.failures} wrk timeouts/errors, ${run.cpuPerRequestUs.toFixed(0)} µs CPU/GET, ${(run.bytesPerResponse / 1024).toFixed(1)} KB/response, CPU ${run.apiCpuPercent.toFixed(0)} %, RSS ${run.apiRssMb.toFixed(0)} MB, load average ${run.loadAverage.toFixed(1)}`,
    )
  }
}

const captured = new Map<string, { headers: Record<string, string>; body: string }>()

/** Polls the filled inbox on every node (several fresh connections each, so every process has its listing cached), then measures. */
async function measureStacks(server: string, stacks: ApiStack[], address: string, extraPids: number[] = []): Promise<void> {
  const urls = stacks.map((stack) => `${stack.apiUrl}/api/email/${address}?refresh=true`)
  for (const url of urls) {
    for (let i = 0; i < 8 * 3; i++) {
      const check = (await (await fetch(url, { headers: { connection: 'close' } })).json()) as { messages: unknown[] }
      if (check.messages.length !== 50) throw new Error(`expected 50 messages, got ${check.messages.length}`)
    }
  }
  for (const encoding of ENCODINGS) {
    if (!captured.has(encoding.label)) captured.set(encoding.label, await captureResponse(urls[0]!, encoding.headers))
    await measure(server, true, [...stacks.map((stack) => stack.api.child.pid!), ...extraPids], urls, encoding)
  }
}

async function measureSqlite(processes: number): Promise<void> {
  const stack = await startApiStack(REPO_ROOT, { withIngest: false, domain: DOMAIN, env: { API_PROCESSES: String(processes) } })
  try {
    const { db } = createDb({ path: stack.dbPath })
    const address = await fillInbox(stack.apiUrl, db).finally(() => db.destroy())
    await measureStacks(`SQLite, api ${processes} process${processes > 1 ? 'es' : ''}`, [stack], address)
  } finally {
    await stack.stop()
  }
}

/** `nodes` api nodes (one process each) of the checkout at `root` on a database of their own on the PostgreSQL server. */
async function measurePostgres(server: PostgresServer, nodes: number, root = REPO_ROOT, name = 'PostgreSQL'): Promise<void> {
  const url = await createTestDatabase(server.url, 'inbox_poll')
  const stacks: ApiStack[] = []
  try {
    // One after the other: the first migrates the new database.
    for (let i = 0; i < nodes; i++) {
      stacks.push(await startApiStack(root, { withIngest: false, domain: DOMAIN, env: { API_PROCESSES: '1', DATABASE_URL: url } }))
    }
    const db = createPostgresDb({ url })
    const address = await fillInbox(stacks[0]!.apiUrl, db).finally(() => db.destroy())
    await measureStacks(`${name}, ${nodes} api node${nodes > 1 ? 's' : ''}`, stacks, address, [server.pid])
  } finally {
    await Promise.all(stacks.map((stack) => stack.stop()))
  }
}

// SQLite and PostgreSQL settings take turns (SQLite 1, PostgreSQL 1 node, SQLite 2, PostgreSQL 2 nodes, …), so a
// change in the shared machine's load falls on both engines rather than on one.
const postgres = ON_POSTGRES ? await startPostgres() : null
try {
  for (let i = 0; i < Math.max(PROCESS_COUNTS.length, NODE_COUNTS.length); i++) {
    if (i < PROCESS_COUNTS.length) await measureSqlite(PROCESS_COUNTS[i]!)
    if (postgres && i < NODE_COUNTS.length) {
      await measurePostgres(postgres, NODE_COUNTS[i]!)
      if (BASELINE_ROOT) await measurePostgres(postgres, NODE_COUNTS[i]!, BASELINE_ROOT, 'PostgreSQL, baseline')
    }
  }
} finally {
  await postgres?.stop()
}

// The reference: the same bytes from a node:http server that does nothing else, with the same load generator.
const refDir = mkdtempSync(join(tmpdir(), 'tempbox-bare-http-'))
try {
  for (const encoding of ENCODINGS) {
    const file = join(refDir, 'response.json')
    writeFileSync(file, JSON.stringify(captured.get(encoding.label)))
    const port = await freePort()
    const bare: Child = await spawnUntil(process.execPath, [join(BENCH_DIR, 'lib/bare-http-server.mjs'), String(port), file], {
      cwd: BENCH_DIR,
      readyText: 'bare http listening',
    })
    try {
      await measure('bare node:http (reference)', false, [bare.child.pid!], [`http://127.0.0.1:${port}/`], encoding)
    } finally {
      await bare.stop()
    }
  }
} finally {
  rmSync(refDir, { recursive: true, force: true })
}

const serverName = (r: Run) => r.server
const paced = runs.filter((r) => r.load !== 'saturation' && r.api)
const met = (r: Run) => r.perSecond >= RATE * 0.98 && r.p99 <= 50 && r.failures === 0
const best = Math.max(...runs.filter((r) => r.load === 'saturation' && r.api).map((r) => r.perSecond))
if (!process.env.BENCH_NO_WRITE) {
  // A run with PostgreSQL has a section of its own: the SQLite-only section keeps its figures (a quieter machine, maybe).
  writeBenchmarkSection(
    REPO_ROOT,
    ON_POSTGRES ? '## Inbox polling on PostgreSQL, with SQLite in the same run' : '## Inbox polling',
    [
      `Measured ${machineLine()}. Command: \`${ON_POSTGRES ? 'BENCH_POSTGRES=1 ' : ''}pnpm bench inbox-poll\` (needs \`wrk\`).`,
      '',
      `wrk (one thread), ${CONNECTIONS} concurrent keep-alive connections for ${SECONDS} s per measurement, all polling \`GET /api/email/{address}?refresh=true\` of one inbox holding 50 messages (sign-up mails with text and HTML parts), against the real api (\`APP_ENV=production\`, \`API_PROCESSES\` as in the first column; the polling route logs at \`warn\`, so no access-log line per poll). **Saturation**: each connection asks again the moment it has its answer, which gives the most GET/s the server can give; its latency is only queueing (with ${CONNECTIONS} requests always in flight, mean latency = ${CONNECTIONS} ÷ throughput, Little's law), not what a poller waits. **Paced**: the same connections send ${RATE.toLocaleString('en-US')} GET/s in all, evenly spread (\`bench/wrk/paced.lua\`) — the latency a poller sees at the target load; run ${REPEATS} times, the table shows the median of each column and, after p99, the range of the ${REPEATS} p99s (tail latency on shared cores swings from run to run). **Reference**: a bare \`node:http\` server (\`bench/lib/bare-http-server.mjs\`) answering every request with the api's own response bytes and doing nothing else — the ceiling of Node's HTTP stack here, under the same load generator. "wrk timeouts" counts requests wrk gave up on after 5 s; at saturation it is as high for the bare server, so it comes from opening ${CONNECTIONS} loopback connections at once, not from the api. CPU is user + system time of the server's whole process tree (primary and workers). Target: ≥ 10,000 GET/s with p99 ≤ 50 ms.${ON_POSTGRES ? ` **PostgreSQL** rows: api nodes on one throwaway PostgreSQL server on the same cores (\`@tempbox/db/testing\`, \`synchronous_commit=on\`), each node one api process with its own listening connection (not cluster workers), each polled by a wrk of its own with its share of the connections and of the rate (what a balancer would send it); GET/s add up, each latency column is the worse node's, and CPU per GET counts the api nodes and the PostgreSQL server. Measured in turn with the SQLite rows (SQLite 1, PostgreSQL 1, SQLite 2, PostgreSQL 2, SQLite 3), so the machine's load falls on both.${BASELINE_ROOT ? ' **PostgreSQL, baseline** rows: the same nodes running the api of another checkout (`BENCH_BASELINE_ROOT`), on a database of its own on the same server, measured in turn with these.' : ''}` : ''} The last column is the 1-min load average when the row ended: a row measured at load above 4 (more runnable work than twice the cores) is marked **load > 4**; its throughput says what the api got of a crowded machine, not what it can do.`,
      '',
      '| server | encoding | load | GET/s | p50 | p90 | p99 | wrk timeouts/errors | bytes/response | CPU per GET | CPU (100 % = one core) | RSS | load avg |',
      '|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
      ...runs.map(
        (r) =>
          `| ${serverName(r)} | ${r.encoding} | ${r.load} | ${r.perSecond.toFixed(0)} | ${r.p50.toFixed(1)} ms | ${r.p90.toFixed(1)} ms | ${r.p99.toFixed(1)} ms${r.repeats > 1 ? ` (${r.p99Range.map((v) => v.toFixed(1)).join('–')})` : ''} | ${r.failures} | ${(r.bytesPerResponse / 1024).toFixed(1)} KB | ${r.cpuPerRequestUs.toFixed(0)} µs | ${r.apiCpuPercent.toFixed(0)} % | ${r.apiRssMb.toFixed(0)} MB | ${r.loadAverage.toFixed(1)}${r.loadAverage > 4 ? ' **load > 4**' : ''} |`,
      ),
      '',
      `Against the target (paced rows) in this run: ${paced.filter(met).map((r) => `**met** by the ${serverName(r)}, ${r.encoding}`).join('; ') || '**not met**'}${paced.filter((r) => !met(r)).length ? `; not met by the ${paced.filter((r) => !met(r)).map((r) => `${serverName(r)}, ${r.encoding}`).join('; ')}` : ''}. Most GET/s from the api at saturation: ${Math.round(best).toLocaleString('en-US')}.`,
    ].join('\n'),
  )
}
