/**
 * Start-up cost of the api and mail-ingest: from their TypeScript sources through tsx (`pnpm dev`) and compiled
 * (`pnpm build`, then node dist/…, which `pnpm start` and the Docker image run). Each start is timed from spawn until
 * the process says it listens (mail-ingest: after its worker threads are up), on a fresh SQLite file; CPU is the
 * process's own user + system time by then, all threads. Both ways interleaved, round by round, in the same run.
 * mail-ingest compiled also starts on a file already migrated, as it mostly does (the api migrated it first).
 *   BENCH_REPEATS=5 …   rounds (median and range reported)
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createDb, migrateToLatest } from '@tempbox/db'
import { BenchRun } from './lib/bench-run.js'
import { writeBenchmarkSection } from './lib/benchmarks-md.js'
import { cpuMs, freePort, spawnUntil } from './lib/processes.js'
import { spread } from './lib/stats.js'

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const bench = new BenchRun('startup')
const REPEATS = Math.max(1, Math.round(bench.number('BENCH_REPEATS', 5)))
const TSX_LOADER = import.meta.resolve('tsx')

const APPS = [
  { name: 'api', source: 'apps/api/src/server.ts', compiled: 'apps/api/dist/server.js', readyText: 'Server listening' },
  { name: 'mail-ingest', source: 'apps/mail-ingest/src/main.ts', compiled: 'apps/mail-ingest/dist/main.js', readyText: '[metrics] listening' },
] as const
type Mode = 'tsx' | 'compiled' | 'current'
/** How each mode runs; `current`: compiled, on a file whose schema is already the latest. */
const MODES: Record<Mode, string> = {
  tsx: 'sources through tsx (`pnpm dev`)',
  compiled: 'compiled, node dist/… (`pnpm start`, Docker)',
  current: 'compiled, on a file already migrated (the api migrated it)',
}
const modesOf = (app: (typeof APPS)[number]): Mode[] => (app.name === 'mail-ingest' ? ['tsx', 'compiled', 'current'] : ['tsx', 'compiled'])

execFileSync(join(REPO_ROOT, 'node_modules/.bin/turbo'), ['run', 'build', '--filter=@tempbox/api', '--filter=@tempbox/mail-ingest', '--env-mode=loose', '--output-logs=errors-only'], { cwd: REPO_ROOT, stdio: 'inherit' })

async function startOnce(app: (typeof APPS)[number], mode: Mode): Promise<{ ms: number; cpuMs: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'tempbox-bench-startup-'))
  if (mode === 'current') {
    const { db } = createDb({ path: join(dir, 'tempbox.sqlite') })
    await migrateToLatest(db).finally(() => db.destroy())
  }
  const [port, smtpPort, metricsPort] = [await freePort(), await freePort(), await freePort()]
  const args = mode === 'tsx' ? ['--import', TSX_LOADER, join(REPO_ROOT, app.source)] : ['--conditions=tempbox-compiled', join(REPO_ROOT, app.compiled)]
  const started = performance.now()
  const proc = await spawnUntil(process.execPath, args, {
    cwd: REPO_ROOT,
    env: {
      DATABASE_PATH: join(dir, 'tempbox.sqlite'), LOG_LEVEL: 'info', HOST: '127.0.0.1', PORT: String(port),
      SMTP_HOST: '127.0.0.1', SMTP_PORT: String(smtpPort), METRICS_PORT: String(metricsPort), INGEST_METRICS_PORT: String(metricsPort),
    },
    readyText: app.readyText,
    timeoutMs: 180_000,
  })
  const result = { ms: performance.now() - started, cpuMs: cpuMs(proc.child.pid!) }
  await proc.stop()
  rmSync(dir, { recursive: true, force: true })
  return result
}

const results = new Map<string, Array<{ ms: number; cpuMs: number }>>()
for (let round = 0; round < REPEATS; round++) {
  for (const app of APPS) {
    // Alternate which goes first, so neither always meets a warmer page cache.
    for (const mode of round % 2 ? modesOf(app).reverse() : modesOf(app)) {
      const r = await startOnce(app, mode)
      const key = `${app.name} ${mode}`
      results.set(key, [...(results.get(key) ?? []), r])
      console.log(`[startup] #${round + 1} ${key.padEnd(22)} ${r.ms.toFixed(0)} ms to listening, ${r.cpuMs.toFixed(0)} ms CPU`)
    }
  }
}

const body = [
  bench.measured(),
  '',
  `From spawn until the process listens (mail-ingest: SMTP, its worker threads and its metrics listener), on a fresh SQLite file (migrations included) unless the row says it was migrated; CPU is the process's user + system time by then. ${REPEATS} interleaved rounds, median with the range in brackets.`,
  '',
  '| app | run as | ms to listening | ms CPU |',
  '|---|---|---:|---:|',
  ...APPS.flatMap((app) =>
    modesOf(app).map((mode) => {
      const r = results.get(`${app.name} ${mode}`)!
      return `| ${app.name} | ${MODES[mode]} | ${spread(r.map((x) => x.ms), 0)} | ${spread(r.map((x) => x.cpuMs), 0)} |`
    }),
  ),
].join('\n')
console.log(`\n${body}`)
if (!process.env.BENCH_NO_WRITE) writeBenchmarkSection(REPO_ROOT, '## Start-up: compiled against tsx', body)
