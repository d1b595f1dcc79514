/**
 * SMTP ingest benchmark: messages/s and latency to the final 250 for Tempbox's mail-ingest and MailDev 3.0.0 (same
 * smtp-server + mailparser stack, no durability), interleaved scenario by scenario: Tempbox, MailDev, Tempbox,
 * MailDev… `BENCH_REPEATS` times, so both targets see the same moments of a machine whose speed drifts. After every run
 * each acknowledged message is read back from the target's store and compared byte for byte with what was sent
 * (Tempbox: the full source rebuilt from its database file; MailDev: its .eml download). Writes the `## SMTP ingest`
 * section of BENCHMARKS.md, keeping its hand-written notes.
 *
 *   pnpm bench smtp            (or: cd bench && pnpm exec tsx smtp-ingest.ts)
 *   BENCH_REPEATS=3 …          runs per target per scenario (median and range are reported)
 *   BENCH_SCALE=0.2 …          fewer messages per scenario (quick look)
 *   BENCH_SKIP_MAILDEV=1 …     only Tempbox
 *   BENCH_ONLY=100 …           only scenarios whose name contains this text ('2 KB × 16|100 KB × 16': either)
 *   BENCH_NO_WRITE=1 …         print the section without writing BENCHMARKS.md
 *   BENCH_INGEST_ROOT=/path/to/other/checkout …  run that copy's mail-ingest (e.g. another commit)
 *   BENCH_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' …  extra node flags for the Tempbox process (profiling)
 *   BENCH_DUMP=/tmp/ingest.log …  write the Tempbox process's output there when it stops (with --trace-gc, say)
 *   BENCH_MAIL_AUTH_AB=1 …  a second Tempbox with MAIL_AUTH=off, interleaved with the first (the sender check's cost, same run)
 *   BENCH_BASELINE_ROOT=/path/to/other/checkout …  a second Tempbox running that copy's mail-ingest, interleaved with
 *                      this one (a change's before and after in the same run); writes its own section
 *   BENCH_POSTGRES=1 …  a second Tempbox storing to PostgreSQL (a throwaway server from @tempbox/db's test harness,
 *                      fsync and synchronous_commit on), interleaved with the SQLite one; writes its own section
 *                      (with BENCH_BASELINE_ROOT too, the baseline runs on that PostgreSQL server: a before/after on PostgreSQL;
 *                      without it, also two ingest nodes on one database, each connection to one of them in turn)
 */
import { execFileSync, execSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { fullSource, selectMessagesWithContent, type Db } from '@tempbox/db'
import { createTestDatabase, startPostgres, type PostgresServer } from '@tempbox/db/testing/postgres'
import { writeBenchmarkSection } from './lib/benchmarks-md.js'
import { startIngest, startIngestOnPostgres, type IngestProcess } from './lib/ingest-process.js'
import { cpuMs, freePort, rssMb, spawnUntil, threadCpuMs, treeCpuMs } from './lib/processes.js'
import { buildHtmlMessage, buildMessage, SmtpClient } from './lib/smtp-client.js'
import { fmt, median, realMailFiles, spread } from './lib/stats.js'

const BENCH_DIR = dirname(fileURLToPath(import.meta.url))
const REPO_ROOT = resolve(BENCH_DIR, '..')
const MAILDEV_DIR = join(BENCH_DIR, '.maildev')
const DOMAIN = 'bench.tempbox.local'
/** Inboxes the messages rotate over, as if many people used the service at once. */
const INBOX_COUNT = 64
const SCALE = Number(process.env.BENCH_SCALE ?? '1')
const REPEATS = Math.max(1, Math.round(Number(process.env.BENCH_REPEATS ?? '3')))
const CRLF = Buffer.from('\r\n')

type Kind = 'plain' | 'html' | 'corpus'

interface Scenario {
  name: string
  kind: Kind
  /** Size of each synthetic message; the corpus brings its own. */
  bytes: number
  connections: number
  messages: number
  /** One message per connection (connect, greet, send, QUIT), as most real senders do. */
  isOneMailPerConnection?: boolean
  /** The throughput Tempbox is meant to reach (msg/s), if this scenario has a target. */
  target?: number
}

// Each scenario runs for several seconds: a 2-second run on shared cores says more about the neighbours than about us.
const ALL_SCENARIOS: Scenario[] = [
  // The headline: real mail of every shape (see tests/fixtures/real-mail/MANIFEST.md), cycled.
  { name: 'real-mail corpus × 16 conns', kind: 'corpus', bytes: 0, connections: 16, messages: 6000 },
  { name: '2 KB × 1 conn', kind: 'plain', bytes: 2048, connections: 1, messages: 2500 },
  { name: '2 KB × 4 conns', kind: 'plain', bytes: 2048, connections: 4, messages: 8000 },
  { name: '2 KB × 16 conns', kind: 'plain', bytes: 2048, connections: 16, messages: 20000, target: 2000 },
  { name: '100 KB × 1 conn', kind: 'plain', bytes: 100 * 1024, connections: 1, messages: 1000 },
  { name: '100 KB × 4 conns', kind: 'plain', bytes: 100 * 1024, connections: 4, messages: 2000 },
  { name: '100 KB × 16 conns', kind: 'plain', bytes: 100 * 1024, connections: 16, messages: 4000, target: 600 },
  { name: '2 KB, 64 concurrent one-mail connections', kind: 'plain', bytes: 2048, connections: 64, messages: 1280, isOneMailPerConnection: true },
  { name: '20 KB text + HTML × 16 conns', kind: 'html', bytes: 20 * 1024, connections: 16, messages: 6000 },
]
const SCENARIOS = ALL_SCENARIOS
  .filter((s) => !process.env.BENCH_ONLY || process.env.BENCH_ONLY.split('|').some((part) => s.name.includes(part)))
  .map((s) => ({ ...s, messages: Math.max(s.connections, Math.round(s.messages * SCALE)) }))

/** A corpus message as it goes on the wire (dot-stuffed, without the CRLF that the end-of-data line supplies) and as it must be stored. */
interface CorpusMessage {
  wire: Buffer
  stored: Buffer
}

/** SMTP carries lines ending CRLF and a final line end; a line starting with a dot is sent with one more. */
function loadCorpus(): CorpusMessage[] {
  return realMailFiles(REPO_ROOT).map((file) => {
    let text = readFileSync(file).toString('latin1').replace(/\r\n|\r|\n/g, '\r\n')
    if (!text.endsWith('\r\n')) text += '\r\n'
    const wire = text.slice(0, -2).replace(/(^|\r\n)\./g, '$1..')
    return { wire: Buffer.from(wire, 'latin1'), stored: Buffer.from(text, 'latin1') }
  })
}

const CORPUS = SCENARIOS.some((s) => s.kind === 'corpus') ? loadCorpus() : []

/**
 * Every message begins with a header naming it, so the stored copy can be found and compared whatever the message's
 * own headers are (corpus messages share subjects, some have none).
 */
const ID_HEADER = 'X-Bench-Id: '

function benchId(stored: Buffer): string | undefined {
  if (!stored.subarray(0, ID_HEADER.length).equals(Buffer.from(ID_HEADER))) return undefined
  const end = stored.indexOf(CRLF)
  return end < 0 ? undefined : stored.subarray(ID_HEADER.length, end).toString('latin1')
}

/** The bytes to send and the parts whose concatenation the store must hold. */
function makeMessage(scenario: Scenario, id: string, i: number, to: string): { wire: Buffer; expected: Buffer[] } {
  const head = Buffer.from(`${ID_HEADER}${id}\r\n`)
  if (scenario.kind === 'corpus') {
    const message = CORPUS[i % CORPUS.length]!
    return { wire: Buffer.concat([head, message.wire]), expected: [head, message.stored] }
  }
  // Synthetic messages have no line starting with a dot, so what is stored is what is sent plus the final CRLF.
  const built = (scenario.kind === 'html' ? buildHtmlMessage : buildMessage)(scenario.bytes, 'load@sender.test', to, id)
  const wire = Buffer.concat([head, built])
  return { wire, expected: [wire, CRLF] }
}

function equalsParts(stored: Buffer, parts: Buffer[]): boolean {
  if (stored.length !== parts.reduce((n, p) => n + p.length, 0)) return false
  let at = 0
  for (const part of parts) {
    if (!stored.subarray(at, at + part.length).equals(part)) return false
    at += part.length
  }
  return true
}

interface Result {
  target: string
  scenario: string
  repeat: number
  acked: number
  failed: number
  /** Replies other than 250 to the data, by reply (the text of the first of each code kept). */
  refusals: Map<string, number>
  lost: number
  mismatched: number
  perSecond: number
  p50: number
  p99: number
  cpuPerMessageMs: number
  /** The database server's CPU per acknowledged message (PostgreSQL's processes); NaN for an embedded store. */
  serverCpuPerMessageMs: number
  rssPeakMb: number
  /** % of one core: the main thread, then the three busiest other threads, then all the rest together. */
  threads: number[]
  load1: number
}

interface Target {
  name: string
  /** The SMTP port of each ingest node: connections are spread over them in turn, as a balancer would. */
  ports: number[]
  /** Each ingest node's process: CPU and memory are their sums; the thread breakdown is the first node's. */
  pids: number[]
  /** The database server's main process (PostgreSQL's postmaster), whose process tree's CPU is counted too. */
  serverPid?: number
  recipient: (i: number) => string
  /** Every message stored since the last call, by bench id; the store is emptied afterwards, as each run starts from an empty store. */
  takeStored: () => Promise<{ byId: Map<string, Buffer>; unnamed: number }>
  stop: () => Promise<void>
}

async function runScenario(target: Target, scenario: Scenario, tag: string, repeat: number): Promise<Result> {
  const latencies: number[] = []
  const expected = new Map<string, Buffer[]>()
  let failed = 0
  const refusals = new Map<string, number>()
  let next = 0
  const [pid] = target.pids as [number]
  const rss = () => target.pids.reduce((sum, p) => sum + rssMb(p), 0)
  const cpuOfNodes = () => target.pids.reduce((sum, p) => sum + cpuMs(p), 0)
  let rssPeak = rss()
  const sampler = setInterval(() => { rssPeak = Math.max(rssPeak, rss()) }, 100)
  const load1 = loadavg()[0]!
  const cpuBefore = cpuOfNodes()
  const serverCpuBefore = target.serverPid ? treeCpuMs(target.serverPid) : Number.NaN
  const threadsBefore = threadCpuMs(pid)
  const started = performance.now()

  const sendOne = async (client: SmtpClient, i: number) => {
    const id = `${tag}-${i}`
    const to = target.recipient(i)
    const message = makeMessage(scenario, id, i, to)
    const t0 = performance.now()
    const reply = await client.send('load@sender.test', to, message.wire)
    latencies.push(performance.now() - t0)
    if (reply.startsWith('250')) expected.set(id, message.expected)
    else {
      failed++
      const code = reply.slice(0, 3)
      const seen = [...refusals.keys()].find((k) => k.startsWith(code)) ?? reply
      refusals.set(seen, (refusals.get(seen) ?? 0) + 1)
    }
  }

  const worker = async (_: unknown, k: number) => {
    const port = target.ports[k % target.ports.length]!
    if (scenario.isOneMailPerConnection) {
      while (next < scenario.messages) {
        const i = next++
        const client = await SmtpClient.open(port)
        await sendOne(client, i)
        await client.quit()
      }
      return
    }
    const client = await SmtpClient.open(port)
    while (next < scenario.messages) await sendOne(client, next++)
    await client.quit()
  }
  await Promise.all(Array.from({ length: scenario.connections }, worker))
  const seconds = (performance.now() - started) / 1000
  clearInterval(sampler)
  rssPeak = Math.max(rssPeak, rss())
  const cpu = cpuOfNodes() - cpuBefore
  const serverCpu = target.serverPid ? treeCpuMs(target.serverPid) - serverCpuBefore : Number.NaN
  const threadsAfter = threadCpuMs(pid)
  const share = (tid: number) => ((threadsAfter.get(tid) ?? 0) - (threadsBefore.get(tid) ?? 0)) / (seconds * 10)
  const others = [...threadsAfter.keys()].filter((tid) => tid !== pid).map(share).sort((a, b) => b - a)
  const threads = [share(pid), ...[0, 1, 2].map((k) => others[k] ?? 0), others.slice(3).reduce((a, b) => a + b, 0)]
  latencies.sort((a, b) => a - b)
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? Number.NaN

  // Checked after the clock stopped, so reading back costs neither target any throughput.
  const { byId, unnamed } = await target.takeStored()
  let lost = 0
  let mismatched = unnamed
  for (const [id, parts] of expected) {
    const stored = byId.get(id)
    if (!stored) lost++
    else if (!equalsParts(stored, parts)) mismatched++
  }
  return {
    target: target.name,
    scenario: scenario.name,
    repeat,
    acked: expected.size,
    failed,
    refusals,
    lost,
    mismatched,
    perSecond: expected.size / seconds,
    p50: pct(0.5),
    p99: pct(0.99),
    cpuPerMessageMs: cpu / Math.max(1, expected.size),
    serverCpuPerMessageMs: serverCpu / Math.max(1, expected.size),
    rssPeakMb: rssPeak,
    threads,
    load1,
  }
}

async function startTempbox(name = 'Tempbox', env: Record<string, string> = {}, ingestRoot?: string): Promise<Target> {
  const ingest = await startIngest(REPO_ROOT, DOMAIN, Array.from({ length: INBOX_COUNT }, (_, i) => `bench${i}`), env, ingestRoot)
  return { name, ports: [ingest.port], pids: [ingest.pid], recipient: (i) => `bench${i % INBOX_COUNT}@${DOMAIN}`, takeStored: () => takeStoredFrom(ingest.db, ingest.sqlite), stop: ingest.stop }
}

const POSTGRES_NAME = 'Tempbox on PostgreSQL'
const POSTGRES_BASELINE_NAME = 'Tempbox (baseline) on PostgreSQL'
const POSTGRES_TWO_NODES_NAME = 'Tempbox on PostgreSQL, 2 ingest nodes'
/** msg/s at 2 KB × 16 conns, synchronous_commit on (issue 14). */
const POSTGRES_TARGET = 1000

/**
 * `nodes` mail-ingest processes on one database of its own on `server`, as ingest nodes behind a balancer; the
 * server's CPU is counted beside theirs.
 */
async function startTempboxOnPostgres(server: PostgresServer, name = POSTGRES_NAME, ingestRoot?: string, nodes = 1): Promise<Target> {
  const url = await createTestDatabase(server.url, 'bench')
  const first = await startIngestOnPostgres(REPO_ROOT, DOMAIN, Array.from({ length: INBOX_COUNT }, (_, i) => `bench${i}`), url, {}, ingestRoot)
  const all = [first]
  // Started one after another: the first has migrated the database, and the inboxes are there for every node.
  for (let n = 1; n < nodes; n++) all.push(await startIngestOnPostgres(REPO_ROOT, DOMAIN, [], url, {}, ingestRoot))
  return {
    name, ports: all.map((i) => i.port), pids: all.map((i) => i.pid), serverPid: server.pid, recipient: (i) => `bench${i % INBOX_COUNT}@${DOMAIN}`,
    takeStored: () => takeStoredFrom(first.db),
    stop: async () => {
      for (const ingest of all) await ingest.stop()
    },
  }
}

/** Every message stored since the last call, by bench id; then the store is emptied. */
async function takeStoredFrom(db: Db, sqlite?: IngestProcess['sqlite']): Promise<{ byId: Map<string, Buffer>; unnamed: number }> {
  const byId = new Map<string, Buffer>()
  let unnamed = 0
  // A SQLite baseline from before content was stored once (2026-11-23) keeps raw and text in the message row itself.
  const oldRows = sqlite && sqlite.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'message_content'").get() === undefined
    ? sqlite.prepare<[number], { id: number; raw: Buffer; text: string | null; raw_body_is_text: number }>(
      'SELECT id, raw, text, raw_body_is_text FROM message WHERE id > ? ORDER BY id LIMIT 500',
    )
    : null
  // A page at a time: a run of 100 KB messages holds hundreds of MB.
  for (let after = 0; ;) {
    const rows = oldRows
      ? oldRows.all(after)
      : await selectMessagesWithContent(db)
        .select(['message.id', 'raw', 'text', 'raw_body_is_text'])
        .where('message.id', '>', after)
        .orderBy('message.id')
        .limit(500)
        .execute()
    if (rows.length === 0) break
    for (const row of rows) {
      const source = fullSource(row)
      const id = benchId(source)
      if (id === undefined) unnamed++
      else byId.set(id, source)
    }
    after = rows.at(-1)!.id
  }
  // Emptied like MailDev's store, so no run starts on a file (and inbox quotas) filled by the ones before.
  await db.deleteFrom('message').execute()
  return { byId, unnamed }
}

/** SPF and DMARC records for the benchmark's sender domain, so every message takes the check's SPF and DMARC paths. */
function writeSenderZone(): string {
  const path = join(mkdtempSync(join(tmpdir(), 'tempbox-bench-dns-')), 'dns.json')
  writeFileSync(path, JSON.stringify({ 'sender.test': { TXT: [['v=spf1 ip4:127.0.0.1 -all']] }, '_dmarc.sender.test': { TXT: [['v=DMARC1; p=none']] } }))
  return path
}

/** Installs MailDev 3.0.0 into bench/.maildev on first use (kept out of git and of the pnpm workspace). */
function ensureMaildev(): string {
  const packageFile = join(MAILDEV_DIR, 'node_modules/maildev/package.json')
  const binOf = () => join(dirname(packageFile), (JSON.parse(readFileSync(packageFile, 'utf8')) as { bin: { maildev: string } }).bin.maildev)
  if (existsSync(packageFile)) return binOf()
  mkdirSync(MAILDEV_DIR, { recursive: true })
  writeFileSync(join(MAILDEV_DIR, 'package.json'), JSON.stringify({
    name: 'maildev-bench-peer',
    private: true,
    dependencies: { maildev: '3.0.0' },
    // Our registry lacks these exact versions; the nearest published ones work (see MACHINE-NOTES.md).
    overrides: { '@zone-eu/mailsplit': '5.4.19', 'encoding-japanese': '2.4.0', libqp: '2.1.2' },
  }, null, 2))
  console.log('[bench] installing MailDev 3.0.0 into bench/.maildev …')
  execSync('npm install --no-audit --no-fund --loglevel=error', { cwd: MAILDEV_DIR, stdio: 'inherit' })
  return binOf()
}

async function startMaildev(): Promise<Target> {
  const bin = ensureMaildev()
  const mailDir = mkdtempSync(join(tmpdir(), 'maildev-bench-'))
  const [port, webPort] = [await freePort(), await freePort()]
  const proc = await spawnUntil(process.execPath, [bin, '--ip', '127.0.0.1', '--web-ip', '127.0.0.1', '-s', String(port), '-w', String(webPort), '--mail-directory', mailDir], {
    cwd: MAILDEV_DIR,
    readyText: 'Press Ctrl+C to stop',
  })
  const api = `http://127.0.0.1:${webPort}/api/email`
  return {
    name: 'MailDev 3.0.0',
    ports: [port],
    pids: [proc.child.pid!],
    recipient: (i) => `bench${i % INBOX_COUNT}@${DOMAIN}`,
    takeStored: async () => {
      // The summary listing, page by page (the full one holds every body), then each message's .eml download.
      const ids: string[] = []
      for (let skip = 0; ; skip += 200) {
        const res = await fetch(`${api}/summary?skip=${skip}&limit=200&sort=asc`)
        const page = (await res.json()) as { items?: Array<{ id: string }> }
        if (!Array.isArray(page.items)) throw new Error(`MailDev's /api/email/summary answered ${res.status}: ${JSON.stringify(page).slice(0, 200)}`)
        ids.push(...page.items.map((m) => m.id))
        if (page.items.length < 200) break
      }
      const byId = new Map<string, Buffer>()
      let unnamed = 0
      let nextIndex = 0
      const downloader = async () => {
        while (nextIndex < ids.length) {
          const res = await fetch(`${api}/${ids[nextIndex++]!}/download`)
          const source = Buffer.from(await res.arrayBuffer())
          const id = res.ok ? benchId(source) : undefined
          if (id === undefined) unnamed++
          else byId.set(id, source)
        }
      }
      await Promise.all(Array.from({ length: 8 }, downloader))
      await fetch(`${api}/all`, { method: 'DELETE' })
      return { byId, unnamed }
    },
    stop: async () => {
      await proc.stop()
      rmSync(mailDir, { recursive: true, force: true })
    },
  }
}

function machine(): string {
  const cpu = cpus()[0]?.model ?? 'unknown CPU'
  const cores = execFileSync('nproc').toString().trim()
  return `${cores} cores (nproc), ${cpu}, Node ${process.version}, ${process.platform}`
}

/** Whether other work was queueing for the same cores while the runs started, from the load averages sampled. */
function noiseNote(loads: number[]): string {
  const cores = cpus().length
  const busy = loads.filter((l) => l > cores).length
  if (busy === 0) return ` (at most the ${cores} cores)`
  const when = busy === loads.length ? 'at the start of every run' : `at the start of ${busy} of ${loads.length} runs`
  return ` — above the ${cores} cores ${when}, so other work was queueing for the same cores: **these figures are noisy**; compare the two targets within a pair, not with runs on a quieter machine`
}

/** The command as run, with the settings that change what it measures. */
function commandLine(): string {
  const settings = ['BENCH_SCALE', 'BENCH_REPEATS', 'BENCH_ONLY', 'BENCH_SKIP_MAILDEV', 'BENCH_INGEST_ROOT', 'BENCH_MAIL_AUTH_AB', 'BENCH_BASELINE_ROOT', 'BENCH_POSTGRES']
    .filter((name) => process.env[name])
    .map((name) => `${name}=${/^[\w./-]+$/.test(process.env[name]!) ? process.env[name] : `'${process.env[name]}'`}`)
  return [...settings, 'pnpm bench smtp'].join(' ')
}

function renderSection(results: Result[], targets: string[], started: Date, finished: Date): string {
  const loads = results.map((r) => r.load1)
  const lines = [
    `Run ${started.toISOString().replace(/\.\d+Z$/, 'Z')} to ${finished.toISOString().slice(11, 19)} UTC on ${machine()}; 1-minute load average ${fmt(Math.min(...loads), 1)}–${fmt(Math.max(...loads), 1)} at the starts of the runs${noiseNote(loads)}. Load generator (bench/lib/smtp-client.ts, raw SMTP with PIPELINING) on the same machine.`,
    `Command: \`${commandLine()}\`. Each target gets a 4-connection warm-up; then, scenario by scenario, ${targets.join(' and ')} take turns, ${REPEATS} run${REPEATS > 1 ? 's' : ''} each. Messages rotate over ${INBOX_COUNT} inboxes. The corpus scenario sends the ${CORPUS.length} messages of tests/fixtures/real-mail in turn (mixed sizes, HTML, attachments, charsets, bare LF turned into CRLF as SMTP carries it).`,
    'Each cell is the median of the runs with the range in brackets. Latency is from MAIL FROM to the final 250 (for Tempbox: after the SQLite commit). "cpu/msg" is the server process\'s user+system CPU per acknowledged message. After each run every acknowledged message is read back and compared byte for byte with what was sent (Tempbox: the source rebuilt from its database file; MailDev: its .eml download): "lost" were acknowledged and not found, "differ" were found with other bytes.',
    '',
    '| scenario | target | msg/s | p50 ms | p99 ms | cpu/msg ms | peak RSS MB | failed | lost | differ |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ]
  const of = (scenario: string, target: string) => results.filter((r) => r.scenario === scenario && r.target === target)
  const sum = (rs: Result[], key: 'failed' | 'lost' | 'mismatched') => rs.reduce((n, r) => n + r[key], 0)
  for (const s of SCENARIOS) {
    for (const t of targets) {
      const rs = of(s.name, t)
      if (rs.length === 0) continue
      lines.push(`| ${s.name} | ${t} | ${spread(rs.map((r) => r.perSecond), 0)} | ${spread(rs.map((r) => r.p50), 1)} | ${spread(rs.map((r) => r.p99), 1)} | ${spread(rs.map((r) => r.cpuPerMessageMs), 2)} | ${fmt(Math.max(...rs.map((r) => r.rssPeakMb)), 0)} | ${sum(rs, 'failed')} | ${sum(rs, 'lost')} | ${sum(rs, 'mismatched')} |`)
    }
  }
  lines.push('')
  const onServer = results.filter((r) => !Number.isNaN(r.serverCpuPerMessageMs))
  if (onServer.length > 0) {
    lines.push(
      `"cpu/msg" above is the ingest process's alone. PostgreSQL's own processes (the server's process tree: backends, WAL writer, checkpointer) used, per acknowledged message: ${SCENARIOS.map((s) => onServer.filter((r) => r.scenario === s.name)).filter((rs) => rs.length > 0).map((rs) => `${rs[0]!.scenario} ${spread(rs.map((r) => r.serverCpuPerMessageMs), 2)} ms`).join('; ')}. The server ran on the same 2 cores, durable (fsync on, synchronous_commit on: each 250 after the WAL flush of its commit).`,
      '',
    )
  }

  const [ours, peer] = targets
  if (peer) {
    lines.push(`Side by side (each pair ran back to back, ${ours} first):`, '')
    for (const s of SCENARIOS) {
      const a = of(s.name, ours!)
      const b = of(s.name, peer)
      const ratios = a.map((r, k) => r.perSecond / (b[k]?.perSecond ?? Number.NaN))
      const faster = ratios.filter((x) => x > 1).length
      const cpuRatio = median(a.map((r, k) => (b[k]?.cpuPerMessageMs ?? Number.NaN) / r.cpuPerMessageMs))
      lines.push(`- ${s.name}: ${ours} ${spread(ratios, 2)}× ${peer}'s msg/s, faster in ${faster} of ${ratios.length} pairs; ${peer} used ${fmt(cpuRatio, 1)}× the CPU per message (median of the pairs).`)
    }
    lines.push('')
  }

  const threadRows = SCENARIOS.map((s) => ({ s, rs: of(s.name, ours!) })).filter(({ rs }) => rs.length > 0)
  lines.push(
    `${ours}'s CPU by thread, in % of one core over each run (from /proc/<pid>/task; Node leaves its threads unnamed, so apart from the main thread, which runs SMTP, they are listed by how busy they were: the parse, store and checkpoint workers, V8's GC helpers and libuv's pool among them). Medians of the runs:`,
    '',
    '| scenario | main thread | busiest other | 2nd | 3rd | all the rest |',
    '|---|---:|---:|---:|---:|---:|',
    ...threadRows.map(({ s, rs }) => `| ${s.name} | ${[0, 1, 2, 3, 4].map((k) => `${fmt(median(rs.map((r) => r.threads[k]!)), 0)} %`).join(' | ')} |`),
    '',
  )

  const verdicts: string[] = []
  for (const s of SCENARIOS.filter((x) => x.target !== undefined)) {
    const rs = of(s.name, ours!)
    if (rs.length === 0) continue
    const med = median(rs.map((r) => r.perSecond))
    const reached = rs.filter((r) => r.perSecond >= s.target!).length
    verdicts.push(`≥ ${fmt(s.target!, 0)} msg/s at ${s.name}: **${med >= s.target! ? 'met' : 'not met'}** (median ${fmt(med, 0)}; ${reached} of ${rs.length} runs at or above)`)
  }
  if (verdicts.length) lines.push(`Targets, from this run's medians (${ours}, every 250 after an fsync of the commit holding the message): ${verdicts.join('; ')}.`, '')
  for (const name of [POSTGRES_NAME, POSTGRES_TWO_NODES_NAME]) {
    const onPostgres = of('2 KB × 16 conns', name)
    if (onPostgres.length === 0) continue
    const med = median(onPostgres.map((r) => r.perSecond))
    lines.push(`PostgreSQL's target (issue 14), durable, ${name}: ≥ ${fmt(POSTGRES_TARGET, 0)} msg/s at 2 KB × 16 conns: **${med >= POSTGRES_TARGET ? 'met' : 'not met'}** (median ${fmt(med, 0)}; ${onPostgres.filter((r) => r.perSecond >= POSTGRES_TARGET).length} of ${onPostgres.length} runs at or above).`, '')
  }
  if (targets.includes(POSTGRES_TWO_NODES_NAME)) {
    lines.push(`Two ingest nodes against one, on the same PostgreSQL server and cores (each pair back to back; CPU is both nodes' together, then the server's):`, '')
    for (const s of SCENARIOS) {
      const one = of(s.name, POSTGRES_NAME)
      const two = of(s.name, POSTGRES_TWO_NODES_NAME)
      if (one.length === 0 || two.length === 0) continue
      const ratios = two.map((r, k) => r.perSecond / (one[k]?.perSecond ?? Number.NaN))
      lines.push(`- ${s.name}: two nodes ${spread(ratios, 2)}× one node's msg/s; ingest CPU/msg ${spread(one.map((r) => r.cpuPerMessageMs), 2)} → ${spread(two.map((r) => r.cpuPerMessageMs), 2)} ms, server ${spread(one.map((r) => r.serverCpuPerMessageMs), 2)} → ${spread(two.map((r) => r.serverCpuPerMessageMs), 2)} ms.`)
    }
    lines.push('')
  }
  for (const t of targets) {
    const rs = results.filter((r) => r.target === t)
    const refusals = new Map<string, number>()
    for (const r of rs) for (const [reply, n] of r.refusals) refusals.set(reply, (refusals.get(reply) ?? 0) + n)
    const why = [...refusals].map(([reply, n]) => `${n} × \`${reply.slice(0, 120)}\``).join(', ')
    lines.push(`- ${t}: ${fmt(rs.reduce((n, r) => n + r.acked, 0), 0)} messages acknowledged, ${sum(rs, 'lost')} lost, ${sum(rs, 'mismatched')} stored with other bytes, ${sum(rs, 'failed')} refused${why ? ` (${why})` : ''}.`)
  }
  return lines.join('\n')
}

function logResult(r: Result): void {
  console.log(`[bench] ${r.target.padEnd(14)} ${r.scenario.padEnd(42)} #${r.repeat + 1} ${r.perSecond.toFixed(0).padStart(6)} msg/s  p50 ${r.p50.toFixed(1)} ms  p99 ${r.p99.toFixed(1)} ms  cpu ${r.cpuPerMessageMs.toFixed(2)} ms/msg${Number.isNaN(r.serverCpuPerMessageMs) ? '' : ` (+ server ${r.serverCpuPerMessageMs.toFixed(2)})`}  rss ${r.rssPeakMb.toFixed(0)} MB  failed ${r.failed}${r.refusals.size ? ` [${[...r.refusals.keys()].join('; ')}]` : ''}  lost ${r.lost}  differ ${r.mismatched}  load ${r.load1.toFixed(1)}`)
}

const started = new Date()
/** A before/after of one change compares Tempbox with itself too: its own section. */
const BASELINE_HEADING = '## SMTP ingest: this checkout and a baseline checkout, same run'
const BASELINE_NAME = 'Tempbox (baseline)'
const SENDER_CHECK_HEADING = '## Sender check (SPF, DKIM, DMARC) at ingest: with and without, same run (issue 16)'
const POSTGRES_HEADING = '## SMTP ingest: SQLite and PostgreSQL, same run (issue 14)'
const targets: Target[] = []
const results: Result[] = []
let postgres: PostgresServer | undefined
try {
  if (process.env.BENCH_MAIL_AUTH_AB) {
    // The check's DNS answered from a fixture zone: what is measured is its CPU beside ingest, not the network's speed.
    targets.push(await startTempbox('Tempbox', { MAIL_AUTH_DNS_FIXTURE: writeSenderZone() }))
    targets.push(await startTempbox('Tempbox, MAIL_AUTH=off', { MAIL_AUTH: 'off' }))
  } else targets.push(await startTempbox())
  if (process.env.BENCH_BASELINE_ROOT && !process.env.BENCH_POSTGRES) targets.push(await startTempbox(BASELINE_NAME, {}, process.env.BENCH_BASELINE_ROOT))
  if (process.env.BENCH_POSTGRES) {
    postgres = await startPostgres()
    targets.push(await startTempboxOnPostgres(postgres))
    if (!process.env.BENCH_BASELINE_ROOT) targets.push(await startTempboxOnPostgres(postgres, POSTGRES_TWO_NODES_NAME, undefined, 2))
    // Both: a PostgreSQL before/after — the baseline checkout's mail-ingest on the same server, a database of its own.
    if (process.env.BENCH_BASELINE_ROOT) targets.push(await startTempboxOnPostgres(postgres, POSTGRES_BASELINE_NAME, process.env.BENCH_BASELINE_ROOT))
  }
  if (!process.env.BENCH_SKIP_MAILDEV) targets.push(await startMaildev())
  // Warm-up so the JIT has compiled the hot paths before anything is measured.
  const warmUp: Scenario = { name: 'warm-up', kind: 'plain', bytes: 2048, connections: 4, messages: Math.max(4, Math.round(500 * SCALE)) }
  for (const target of targets) await runScenario(target, warmUp, 'warm', 0)
  for (const [n, scenario] of SCENARIOS.entries()) {
    for (let repeat = 0; repeat < REPEATS; repeat++) {
      for (const target of targets) {
        const result = await runScenario(target, scenario, `s${n}r${repeat}`, repeat)
        logResult(result)
        results.push(result)
      }
    }
  }
} finally {
  for (const target of targets) await target.stop()
  await postgres?.stop()
}
const section = renderSection(results, targets.map((t) => t.name), started, new Date())
console.log(`\n${section}`)
// The sender-check A/B compares Tempbox with itself: it has its own section, so it never replaces the peer comparison.
const heading = process.env.BENCH_MAIL_AUTH_AB
  ? SENDER_CHECK_HEADING
  : process.env.BENCH_BASELINE_ROOT
    ? BASELINE_HEADING
    : process.env.BENCH_POSTGRES
      ? POSTGRES_HEADING
      : '## SMTP ingest'
if (!process.env.BENCH_NO_WRITE) writeBenchmarkSection(REPO_ROOT, heading, section)
if (results.some((r) => r.target.startsWith('Tempbox') && (r.lost > 0 || r.mismatched > 0))) {
  console.error('[bench] some acknowledged messages are missing from the database or differ from what was sent')
  process.exit(1)
}
