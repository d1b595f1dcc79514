/**
 * SMTP ingest benchmark: messages/s and latency to the final 250 for Tempbox's mail-ingest and MailDev 3.0.0 (same
 * smtp-server + mailparser stack, no durability), interleaved scenario by scenario: Tempbox, MailDev, MailDev, Tempbox
 * (ABBA)… `BENCH_REPEATS` times, so both targets see the same moments of a machine whose speed drifts. After every run
 * each acknowledged message is read back from the target's store and compared byte for byte with what was sent
 * (Tempbox: the full source rebuilt from its database file; MailDev: its .eml download). Writes the `## SMTP ingest`
 * section of BENCHMARKS.md, keeping its hand-written notes.
 *
 *   pnpm bench smtp            (or: cd bench && pnpm exec tsx smtp-ingest.ts)
 *   BENCH_REPEATS=3 …          runs per target per scenario (median and range are reported)
 *   BENCH_SCALE=0.2 …          fewer messages per scenario (quick look)
 *   BENCH_SKIP_MAILDEV=1 …     only Tempbox
 *   BENCH_SKIP_SINK=1 …        without the bare smtp-server that discards every message (what the protocol costs
 *                              here), otherwise interleaved with the others: Tempbox's msg/s as a share of it, same run
 *   BENCH_ONLY=100 …           only scenarios whose name contains this text ('2 KB × 16|100 KB × 16': either)
 *   BENCH_NO_WRITE=1 …         print the section without writing BENCHMARKS.md
 *   BENCH_INGEST_ROOT=/path/to/other/checkout …  run that copy's mail-ingest (e.g. another commit)
 *   BENCH_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' …  extra node flags for the Tempbox process (profiling)
 *   BENCH_DUMP=/tmp/ingest.log …  write the Tempbox process's output there when it stops (with --trace-gc, say)
 *   BENCH_MAIL_AUTH_AB=1 …  a second Tempbox with MAIL_AUTH=off, interleaved with the first (the sender check's cost, same run)
 *   BENCH_BASELINE_ROOT=/path/to/other/checkout …  a second Tempbox running that copy's mail-ingest, interleaved with
 *                      this one (a change's before and after in the same run); writes its own section
 *   BENCH_BASELINE_ENV='NAME=value …' / BENCH_BASELINE_NODE_ARGS='…'  settings / node flags for the baseline alone
 *                      (with BENCH_BASELINE_ROOT=.., a setting's or a V8 flag's before/after on this very checkout)
 *   BENCH_POSTGRES=1 …  a second Tempbox storing to PostgreSQL (a throwaway server from @tempbox/db's test harness,
 *                      fsync and synchronous_commit on), interleaved with the SQLite one; writes its own section
 *                      (with BENCH_BASELINE_ROOT too, the baseline runs on that PostgreSQL server: a before/after on PostgreSQL;
 *                      without it, also two ingest nodes on one database, each connection to one of them in turn)
 */
import { startPostgres, type PostgresServer } from '@tempbox/db/testing/postgres'
import { writeBenchmarkSection } from './lib/benchmarks-md.js'
import { startMaildev } from './lib/smtp/maildev.js'
import { startSink } from './lib/smtp/sink.js'
import { logResult, renderSection } from './lib/smtp/report.js'
import { runScenario, type Result, type Target } from './lib/smtp/run-scenario.js'
import { BASELINE_ENV, BASELINE_NODE_ARGS, BASELINE_ROOT, MAIL_AUTH_AB, ON_POSTGRES, REPEATS, REPO_ROOT, SCENARIOS, SKIP_MAILDEV, WARM_UP, WITH_SINK } from './lib/smtp/settings.js'
import { POSTGRES_BASELINE_NAME, POSTGRES_TWO_NODES_NAME, startTempbox, startTempboxOnPostgres, writeSenderZone } from './lib/smtp/tempbox-targets.js'

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
  if (MAIL_AUTH_AB) {
    // The check's DNS answered from a fixture zone: what is measured is its CPU beside ingest, not the network's speed.
    targets.push(await startTempbox('Tempbox', { MAIL_AUTH_DNS_FIXTURE: writeSenderZone() }))
    targets.push(await startTempbox('Tempbox, MAIL_AUTH=off', { MAIL_AUTH: 'off' }))
  } else targets.push(await startTempbox())
  if (BASELINE_ROOT && !ON_POSTGRES) targets.push(await startTempbox(BASELINE_NAME, BASELINE_ENV, BASELINE_ROOT, BASELINE_NODE_ARGS))
  if (ON_POSTGRES) {
    postgres = await startPostgres()
    targets.push(await startTempboxOnPostgres(postgres))
    if (!BASELINE_ROOT) targets.push(await startTempboxOnPostgres(postgres, POSTGRES_TWO_NODES_NAME, undefined, 2))
    // Both: a PostgreSQL before/after — the baseline checkout's mail-ingest on the same server, a database of its own.
    if (BASELINE_ROOT) targets.push(await startTempboxOnPostgres(postgres, POSTGRES_BASELINE_NAME, BASELINE_ROOT))
  }
  if (!SKIP_MAILDEV) targets.push(await startMaildev())
  // The peer comparison's reference; a section comparing Tempbox with itself needs none.
  if (WITH_SINK && !MAIL_AUTH_AB && !BASELINE_ROOT && !ON_POSTGRES) targets.push(await startSink())
  // Warm-up so the JIT has compiled the hot paths before anything is measured.
  for (const target of targets) await runScenario(target, WARM_UP, 'warm', 0)
  for (const [n, scenario] of SCENARIOS.entries()) {
    for (let repeat = 0; repeat < REPEATS; repeat++) {
      // ABBA: which target goes first alternates by run, so neither always gets the warmer (or quieter) moment.
      for (const target of repeat % 2 ? [...targets].reverse() : targets) {
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
const heading = MAIL_AUTH_AB
  ? SENDER_CHECK_HEADING
  : BASELINE_ROOT
    ? BASELINE_HEADING
    : ON_POSTGRES
      ? POSTGRES_HEADING
      : '## SMTP ingest'
if (!process.env.BENCH_NO_WRITE) writeBenchmarkSection(REPO_ROOT, heading, section)
if (results.some((r) => r.target.startsWith('Tempbox') && (r.lost > 0 || r.mismatched > 0))) {
  console.error('[bench] some acknowledged messages are missing from the database or differ from what was sent')
  process.exit(1)
}
