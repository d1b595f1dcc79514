/**
 * SQLite writes alone (better-sqlite3, no server): what one fsync costs a commit on this disk, what group commit buys,
 * and what the page size does to the CPU of writing 2 KB and 100 KB rows — the measurements behind ingest's
 * synchronous=FULL with group commit and the 16 KB pages of new database files. Writes `## SQLite writes` in
 * BENCHMARKS.md.
 *
 *   pnpm bench sqlite          (or: cd bench && pnpm exec tsx sqlite-write.ts)
 *   BENCH_REPEATS=3 …          rounds (every case runs once per round, so the cases share the machine's drift)
 *   BENCH_SCALE=0.2 …          fewer rows per case
 *   BENCH_NO_WRITE=1 …         print without writing BENCHMARKS.md
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { BenchRun } from './lib/bench-run.js'
import { writeBenchmarkSection } from './lib/benchmarks-md.js'
import { fmt, median, spread } from './lib/stats.js'

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const bench = new BenchRun('sqlite')
const SCALE = bench.number('BENCH_SCALE', 1)
const REPEATS = Math.max(1, Math.round(bench.number('BENCH_REPEATS', 3)))

/** The parts of better-sqlite3 used here; it is packages/db's dependency, loaded from there rather than pinned twice. */
interface Statement { run: (...params: unknown[]) => unknown }
interface Connection {
  pragma: (source: string) => unknown
  exec: (source: string) => void
  prepare: (source: string) => Statement
  transaction: <A extends unknown[]>(fn: (...args: A) => void) => (...args: A) => void
  close: () => void
}
// eslint-disable-next-line no-restricted-syntax -- this bench measures the driver itself, beneath packages/db
const Database = createRequire(join(REPO_ROOT, 'packages/db/package.json'))('better-sqlite3') as new (path: string) => Connection

interface Case {
  name: string
  pageSize: number
  synchronous: 'FULL' | 'OFF'
  rowBytes: number
  rowsPerCommit: number
  rows: number
}

const KB = 1024
const rows = (n: number) => Math.max(16, Math.round(n * SCALE))
const CASES: Case[] = [
  { name: 'fsync: 2 KB row, 1 per commit, synchronous=FULL', pageSize: 16 * KB, synchronous: 'FULL', rowBytes: 2 * KB, rowsPerCommit: 1, rows: rows(3000) },
  { name: 'fsync: 2 KB row, 1 per commit, synchronous=OFF', pageSize: 16 * KB, synchronous: 'OFF', rowBytes: 2 * KB, rowsPerCommit: 1, rows: rows(3000) },
  ...[4, 16, 64].flatMap((page) => [
    { name: `page ${page} KB: 2 KB rows, 16 per commit, FULL`, pageSize: page * KB, synchronous: 'FULL' as const, rowBytes: 2 * KB, rowsPerCommit: 16, rows: rows(32000) },
    { name: `page ${page} KB: 100 KB rows, 8 per commit, FULL`, pageSize: page * KB, synchronous: 'FULL' as const, rowBytes: 100 * KB, rowsPerCommit: 8, rows: rows(1600) },
  ]),
]

interface Measure { rowsPerSecond: number; commitsPerSecond: number; msPerCommit: number; cpuUsPerRow: number; systemUsPerRow: number }

function runCase(c: Case): Measure {
  const dir = mkdtempSync(join(tmpdir(), 'tempbox-sqlite-bench-'))
  try {
    const db = new Database(join(dir, 'bench.sqlite'))
    // page_size only takes effect before the file has its first page, and in WAL mode not at all afterwards.
    db.pragma(`page_size = ${c.pageSize}`)
    db.pragma('journal_mode = WAL')
    db.pragma(`synchronous = ${c.synchronous}`)
    db.exec('CREATE TABLE message (id INTEGER PRIMARY KEY, inbox_id INTEGER NOT NULL, received_at INTEGER NOT NULL, raw BLOB NOT NULL)')
    const insert = db.prepare('INSERT INTO message (inbox_id, received_at, raw) VALUES (?, ?, ?)')
    // Distinct bytes per row, so no layer can get away with less work than real mail would need.
    const payloads = Array.from({ length: 8 }, (_, k) => Buffer.alloc(c.rowBytes, `mail body ${k} `))
    const commit = db.transaction((first: number) => {
      for (let i = first; i < first + c.rowsPerCommit; i++) insert.run(i % 64, Date.now(), payloads[i % payloads.length])
    })
    const commits = Math.ceil(c.rows / c.rowsPerCommit)
    const cpu0 = process.cpuUsage()
    const t0 = performance.now()
    for (let k = 0; k < commits; k++) commit(k * c.rowsPerCommit)
    const ms = performance.now() - t0
    const cpu = process.cpuUsage(cpu0)
    db.close()
    const written = commits * c.rowsPerCommit
    return {
      rowsPerSecond: written / (ms / 1000),
      commitsPerSecond: commits / (ms / 1000),
      msPerCommit: ms / commits,
      cpuUsPerRow: (cpu.user + cpu.system) / written,
      systemUsPerRow: cpu.system / written,
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const measures = new Map<string, Measure[]>(CASES.map((c) => [c.name, []]))
for (let round = 0; round < REPEATS; round++) {
  // Cases in reverse order every other round (ABBA), so no case always runs first or last in a round.
  for (const c of round % 2 ? [...CASES].reverse() : CASES) {
    const m = runCase(c)
    measures.get(c.name)!.push(m)
    console.log(`[sqlite] #${round + 1} ${c.name.padEnd(48)} ${m.rowsPerSecond.toFixed(0).padStart(7)} rows/s  ${m.commitsPerSecond.toFixed(0).padStart(6)} commits/s  ${m.msPerCommit.toFixed(3)} ms/commit  cpu ${m.cpuUsPerRow.toFixed(0)} µs/row (system ${m.systemUsPerRow.toFixed(0)})`)
  }
}

const col = (name: string, key: keyof Measure) => measures.get(name)!.map((m) => m[key])

const full = CASES[0]!.name
const off = CASES[1]!.name
// Paired by round: the same moment of the machine on both sides of the difference.
const fsyncMs = col(full, 'msPerCommit').map((v, k) => v - col(off, 'msPerCommit')[k]!)
// The same 2 KB rows 16 to a commit, with the 16 KB pages ingest uses.
const grouped = 'page 16 KB: 2 KB rows, 16 per commit, FULL'

const body = [
  bench.measured(),
  '',
  `better-sqlite3 alone in one thread, WAL mode, a fresh file in ${tmpdir()} per case, rows of distinct bytes in a table shaped like a message; checkpoints run where SQLite puts them (inside the commit that fills the WAL). Each case ran once per round, ${REPEATS} round${REPEATS > 1 ? 's' : ''}; cells are the median with the range in brackets. CPU is this process's user + system time per row.`,
  '',
  '| case | rows/s | commits/s | ms per commit | CPU µs per row | of which system |',
  '|---|---:|---:|---:|---:|---:|',
  ...CASES.map((c) => `| ${c.name} | ${spread(col(c.name, 'rowsPerSecond'), 0)} | ${spread(col(c.name, 'commitsPerSecond'), 0)} | ${spread(col(c.name, 'msPerCommit'), 3)} | ${spread(col(c.name, 'cpuUsPerRow'), 0)} | ${spread(col(c.name, 'systemUsPerRow'), 0)} |`),
  '',
  `What a commit's fsync costs (ms per commit with synchronous=FULL minus OFF, paired by round): ${spread(fsyncMs, 3)} ms. Group commit: 16 rows per commit wrote ${fmt(median(col(grouped, 'rowsPerSecond')) / median(col(full, 'rowsPerSecond')), 1)}× the rows per second of one row per commit (medians).`,
  `Page size, CPU per row (medians): 2 KB rows ${[4, 16, 64].map((p) => `${p} KB pages ${fmt(median(col(`page ${p} KB: 2 KB rows, 16 per commit, FULL`, 'cpuUsPerRow')), 0)} µs`).join(', ')}; 100 KB rows ${[4, 16, 64].map((p) => `${p} KB pages ${fmt(median(col(`page ${p} KB: 100 KB rows, 8 per commit, FULL`, 'cpuUsPerRow')), 0)} µs`).join(', ')}.`,
].join('\n')
console.log(`\n${body}`)
if (!process.env.BENCH_NO_WRITE) writeBenchmarkSection(REPO_ROOT, '## SQLite writes: fsync and page size', body)
