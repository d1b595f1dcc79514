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
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startPostgres } from '@tempbox/db/testing/postgres'
import { captured, measurePostgres, measureSqlite } from './lib/poll/api-stacks.js'
import { measureRatio } from './lib/poll/ratio-section.js'
import { BASELINE_ROOT, BENCH_DIR, NODE_COUNTS, ON_POSTGRES, PROCESS_COUNTS, RATIO_ONLY } from './lib/poll/settings.js'
import { ENCODINGS, measure, runs } from './lib/poll/wrk-runs.js'
import { writeWrkSection } from './lib/poll/wrk-section.js'
import { freePort, spawnUntil, type Child } from './lib/processes.js'
import { hasWrk } from './lib/wrk.js'

await measureRatio()
if (RATIO_ONLY) process.exit(0)
if (!hasWrk()) {
  console.error('[inbox-poll] the wrk part needs wrk on the PATH (Debian: apt-get install -y wrk): skipped')
  process.exit(0)
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

writeWrkSection(runs)
