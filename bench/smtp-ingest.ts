/**
 * SMTP ingest benchmark: messages/s and latency to the final 250 for Tempbox's mail-ingest and, in the
 * same run, MailDev 3.0.0 (same smtp-server + mailparser stack, no durability). Afterwards it checks that
 * every acknowledged message is really stored, and writes the `## SMTP ingest` section of BENCHMARKS.md.
 *
 *   pnpm bench smtp            (or: cd bench && pnpm exec tsx smtp-ingest.ts)
 *   BENCH_SCALE=0.2 …          fewer messages per scenario (quick look)
 *   BENCH_SKIP_MAILDEV=1 …     only Tempbox
 *   BENCH_ONLY=100 …           only scenarios whose name contains this text
 *   BENCH_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' …  extra node flags for the Tempbox process (profiling)
 *   BENCH_DUMP=/tmp/ingest.log …  write the Tempbox process's output there when it stops (with --trace-gc, say)
 */
import { execFileSync, execSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createDb } from '@tempbox/db'
import { cpuMs, freePort, rssMb, spawnUntil, type Child } from './lib/processes.js'
import { buildHtmlMessage, buildMessage, SmtpClient } from './lib/smtp-client.js'

const BENCH_DIR = dirname(fileURLToPath(import.meta.url))
const REPO_ROOT = resolve(BENCH_DIR, '..')
const MAILDEV_DIR = join(BENCH_DIR, '.maildev')
const DOMAIN = 'bench.tempbox.local'
/** Inboxes the messages rotate over, as if many people used the service at once. */
const INBOX_COUNT = 64
const SCALE = Number(process.env.BENCH_SCALE ?? '1')

interface Scenario {
  name: string
  bytes: number
  connections: number
  messages: number
  /** One message per connection (connect, greet, send, QUIT), as most real senders do. */
  isOneMailPerConnection?: boolean
  /** multipart/alternative text + HTML, quoted-printable (buildHtmlMessage) instead of plain text. */
  isHtml?: boolean
}

// Each scenario runs for several seconds: a 2-second run on shared cores says more about the neighbours than about us.
const SCENARIOS: Scenario[] = [
  { name: '2 KB × 1 conn', bytes: 2048, connections: 1, messages: 2500 },
  { name: '2 KB × 4 conns', bytes: 2048, connections: 4, messages: 8000 },
  { name: '2 KB × 16 conns', bytes: 2048, connections: 16, messages: 20000 },
  { name: '100 KB × 1 conn', bytes: 100 * 1024, connections: 1, messages: 1000 },
  { name: '100 KB × 4 conns', bytes: 100 * 1024, connections: 4, messages: 2000 },
  { name: '100 KB × 16 conns', bytes: 100 * 1024, connections: 16, messages: 4000 },
  { name: '2 KB, 64 concurrent one-mail connections', bytes: 2048, connections: 64, messages: 1280, isOneMailPerConnection: true },
  // Not a target: what most mail to a temporary address looks like, for a view beyond plain text.
  { name: '20 KB text + HTML × 16 conns', bytes: 20 * 1024, connections: 16, messages: 6000, isHtml: true },
]
  .filter((s) => !process.env.BENCH_ONLY || s.name.includes(process.env.BENCH_ONLY))
  .map((s) => ({ ...s, messages: Math.max(s.connections, Math.round(s.messages * SCALE)) }))

interface Result {
  target: string
  scenario: string
  acked: number
  failed: number
  seconds: number
  perSecond: number
  p50: number
  p99: number
  cpuPerMessageMs: number
  rssPeakMb: number
}

interface Target {
  name: string
  port: number
  pid: number
  recipient: (i: number) => string
  /** Subjects of the stored messages whose subject starts with `prefix`. */
  storedSubjects: (prefix: string) => Promise<Set<string>>
  stop: () => Promise<void>
}

async function runScenario(target: Target, scenario: Scenario, tag: string): Promise<{ result: Result; acked: string[] }> {
  const latencies: number[] = []
  const acked: string[] = []
  let failed = 0
  let next = 0
  let rssPeak = rssMb(target.pid)
  const sampler = setInterval(() => { rssPeak = Math.max(rssPeak, rssMb(target.pid)) }, 100)
  const cpuBefore = cpuMs(target.pid)
  const started = performance.now()

  const sendOne = async (client: SmtpClient, i: number) => {
    const subject = `${tag}-${i}`
    const to = target.recipient(i)
    const data = (scenario.isHtml ? buildHtmlMessage : buildMessage)(scenario.bytes, 'load@sender.test', to, subject)
    const t0 = performance.now()
    const reply = await client.send('load@sender.test', to, data)
    latencies.push(performance.now() - t0)
    if (reply.startsWith('250')) acked.push(subject)
    else failed++
  }

  const worker = async () => {
    if (scenario.isOneMailPerConnection) {
      while (next < scenario.messages) {
        const i = next++
        const client = await SmtpClient.open(target.port)
        await sendOne(client, i)
        await client.quit()
      }
      return
    }
    const client = await SmtpClient.open(target.port)
    while (next < scenario.messages) await sendOne(client, next++)
    await client.quit()
  }
  await Promise.all(Array.from({ length: scenario.connections }, worker))
  const seconds = (performance.now() - started) / 1000
  clearInterval(sampler)
  rssPeak = Math.max(rssPeak, rssMb(target.pid))
  const cpu = cpuMs(target.pid) - cpuBefore
  latencies.sort((a, b) => a - b)
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? Number.NaN
  return {
    acked,
    result: {
      target: target.name,
      scenario: scenario.name,
      acked: acked.length,
      failed,
      seconds,
      perSecond: acked.length / seconds,
      p50: pct(0.5),
      p99: pct(0.99),
      cpuPerMessageMs: cpu / Math.max(1, acked.length),
      rssPeakMb: rssPeak,
    },
  }
}

async function startTempbox(): Promise<Target> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tempbox-bench-'))
  const dbPath = join(dataDir, 'tempbox.sqlite')
  const port = await freePort()
  // Plain node with the tsx loader (not the tsx CLI) so the pid we sample is the server itself.
  const proc: Child = await spawnUntil(process.execPath, [...(process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? []), '--import', 'tsx', join(REPO_ROOT, 'apps/mail-ingest/src/main.ts')], {
    cwd: BENCH_DIR,
    // Every benchmark connection comes from 127.0.0.1: one client, as far as the per-IP session cap can tell.
    env: { SMTP_HOST: '127.0.0.1', SMTP_PORT: String(port), INGEST_METRICS_PORT: '0', DATABASE_PATH: dbPath, MAIL_DOMAINS: DOMAIN, SMTP_MAX_CLIENTS_PER_IP: '1000' },
    readyText: '[smtp] listening',
  })
  const { db } = createDb({ path: dbPath })
  const now = Date.now()
  await db
    .insertInto('inbox')
    .values(Array.from({ length: INBOX_COUNT }, (_, i) => ({
      address: `bench${i}@${DOMAIN}`, local_part: `bench${i}`, domain: DOMAIN, created_at: now, expires_at: now + 86_400_000,
    })))
    .execute()
  return {
    name: 'Tempbox',
    port,
    pid: proc.child.pid!,
    recipient: (i) => `bench${i % INBOX_COUNT}@${DOMAIN}`,
    storedSubjects: async (prefix) => {
      const rows = await db.selectFrom('message').select('subject').where('subject', 'like', `${prefix}%`).execute()
      return new Set(rows.map((r) => r.subject))
    },
    stop: async () => {
      await proc.stop()
      if (process.env.BENCH_DUMP) writeFileSync(process.env.BENCH_DUMP, proc.output())
      await db.destroy()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
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
  return {
    name: 'MailDev 3.0.0',
    port,
    pid: proc.child.pid!,
    recipient: (i) => `bench${i % INBOX_COUNT}@${DOMAIN}`,
    storedSubjects: async (prefix) => {
      // The summary listing, page by page: the full one holds every body and outgrows a string at 100 KB × thousands.
      const subjects = new Set<string>()
      for (let skip = 0; ; skip += 200) {
        const res = await fetch(`http://127.0.0.1:${webPort}/api/email/summary?skip=${skip}&limit=200`)
        const page = (await res.json()) as { items?: Array<{ subject: string }>; total?: number }
        if (!Array.isArray(page.items)) throw new Error(`MailDev's /api/email/summary answered ${res.status}: ${JSON.stringify(page).slice(0, 200)}`)
        for (const m of page.items) if (m.subject.startsWith(prefix)) subjects.add(m.subject)
        if (page.items.length < 200) break
      }
      // Checked, so emptied: each scenario starts MailDev with an empty store.
      await fetch(`http://127.0.0.1:${webPort}/api/email/all`, { method: 'DELETE' })
      return subjects
    },
    stop: async () => {
      await proc.stop()
      rmSync(mailDir, { recursive: true, force: true })
    },
  }
}

async function benchTarget(target: Target): Promise<{ results: Result[]; missing: number; rssAfterMb: number }> {
  // Warm-up so the JIT has compiled the hot paths before anything is measured.
  await runScenario(target, { name: 'warm-up', bytes: 2048, connections: 4, messages: Math.max(4, Math.round(500 * SCALE)) }, 'warm')
  const results: Result[] = []
  let missing = 0
  for (const [n, scenario] of SCENARIOS.entries()) {
    const tag = `s${n}`
    const { result, acked } = await runScenario(target, scenario, tag)
    const stored = await target.storedSubjects(`${tag}-`)
    const lost = acked.filter((s) => !stored.has(s)).length
    missing += lost
    results.push(result)
    console.log(`[bench] ${target.name.padEnd(14)} ${scenario.name.padEnd(42)} ${result.perSecond.toFixed(0).padStart(6)} msg/s  p50 ${result.p50.toFixed(1)} ms  p99 ${result.p99.toFixed(1)} ms  cpu ${result.cpuPerMessageMs.toFixed(2)} ms/msg  rss ${result.rssPeakMb.toFixed(0)} MB  failed ${result.failed}  missing ${lost}`)
  }
  await new Promise((r) => setTimeout(r, 2000))
  return { results, missing, rssAfterMb: rssMb(target.pid) }
}

function machine(): string {
  const cpu = cpus()[0]?.model ?? 'unknown CPU'
  const cores = execFileSync('nproc').toString().trim()
  return `${cores} cores (nproc), ${cpu}, Node ${process.version}, ${process.platform}`
}

function renderSection(all: Array<{ target: string; results: Result[]; missing: number; rssAfterMb: number }>): string {
  const date = new Date().toISOString().replace(/\.\d+Z$/, 'Z')
  const lines = [
    '## SMTP ingest',
    '',
    `Run ${date} on ${machine()}; load generator (bench/lib/smtp-client.ts, raw SMTP with PIPELINING) on the same machine.`,
    `Command: \`pnpm bench smtp\`${SCALE !== 1 ? ` (BENCH_SCALE=${SCALE})` : ''}. Each target gets a 4-connection warm-up first; messages rotate over ${INBOX_COUNT} inboxes.`,
    'Latency is from MAIL FROM to the final 250 (for Tempbox: after the SQLite commit). "cpu/msg" is the server process\'s user+system CPU per acknowledged message.',
    '',
    '| target | scenario | msg/s | p50 ms | p99 ms | cpu/msg ms | peak RSS MB | failed |',
    '|---|---|---:|---:|---:|---:|---:|---:|',
  ]
  for (const t of all) {
    for (const r of t.results) {
      lines.push(`| ${r.target} | ${r.scenario} | ${r.perSecond.toFixed(0)} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.cpuPerMessageMs.toFixed(2)} | ${r.rssPeakMb.toFixed(0)} | ${r.failed} |`)
    }
  }
  lines.push('')
  for (const t of all) {
    lines.push(`- ${t.target}: every acknowledged message checked afterwards, ${t.missing} missing; RSS ${t.rssAfterMb.toFixed(0)} MB two seconds after the run.`)
  }
  lines.push('')
  return lines.join('\n')
}

/** Replaces (or appends) the `## SMTP ingest` section, leaving other sections of BENCHMARKS.md alone. */
function writeSection(section: string, notes: string): void {
  const file = join(REPO_ROOT, 'BENCHMARKS.md')
  const current = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n\n'
  const start = current.indexOf('## SMTP ingest')
  const body = `${section}${notes}`
  if (start < 0) {
    writeFileSync(file, `${current.trimEnd()}\n\n${body}`)
    return
  }
  const rest = current.slice(start + 1)
  const nextHeading = rest.search(/^## /m)
  const end = nextHeading < 0 ? current.length : start + 1 + nextHeading
  writeFileSync(file, `${current.slice(0, start)}${body}${current.slice(end).length ? `\n${current.slice(end)}` : ''}`)
}

/** Hand-written analysis kept below the generated table across runs. */
function readNotes(): string {
  const file = join(BENCH_DIR, 'smtp-ingest-notes.md')
  return existsSync(file) ? `\n${readFileSync(file, 'utf8').trim()}\n` : ''
}

const all: Array<{ target: string; results: Result[]; missing: number; rssAfterMb: number }> = []
const starters = [startTempbox, ...(process.env.BENCH_SKIP_MAILDEV ? [] : [startMaildev])]
for (const start of starters) {
  const target = await start()
  try {
    all.push({ target: target.name, ...(await benchTarget(target)) })
  } finally {
    await target.stop()
  }
}
const section = renderSection(all)
console.log(`\n${section}`)
if (!process.env.BENCH_NO_WRITE) writeSection(section, readNotes())
if (all.some((t) => t.target === 'Tempbox' && t.missing > 0)) {
  console.error('[bench] some acknowledged messages are missing from the database')
  process.exit(1)
}
