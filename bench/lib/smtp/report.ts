/** The bench's BENCHMARKS.md section and its console lines, from the runs' results. */
import { execFileSync } from 'node:child_process'
import { cpus } from 'node:os'
import { fmt, median, spread } from '../stats.js'
import { CORPUS } from './messages.js'
import type { Result } from './run-scenario.js'
import { bench, INBOX_COUNT, REPEATS, SCENARIOS, WARM_UP } from './settings.js'
import { SINK_NAME } from './sink.js'
import { POSTGRES_NAME, POSTGRES_TARGET, POSTGRES_TWO_NODES_NAME } from './tempbox-targets.js'

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

export function renderSection(results: Result[], targets: string[], started: Date, finished: Date): string {
  const loads = results.map((r) => r.load1)
  const lines = [
    `Run ${started.toISOString().replace(/\.\d+Z$/, 'Z')} to ${finished.toISOString().slice(11, 19)} UTC on ${machine()}; 1-minute load average ${fmt(Math.min(...loads), 1)}–${fmt(Math.max(...loads), 1)} at the starts of the runs${noiseNote(loads)}; ${bench.load()}. Load generator (bench/lib/smtp-client.ts, raw SMTP with PIPELINING) on the same machine.`,
    `Command: \`${bench.command}\`. Each target first takes ${fmt(WARM_UP.messages, 0)} messages of 2 KB over ${WARM_UP.connections} connections, unmeasured (its warm-up); then, scenario by scenario, ${targets.join(' and ')} take turns (which goes first alternates by run: ABBA), ${REPEATS} run${REPEATS > 1 ? 's' : ''} each. Messages rotate over ${INBOX_COUNT} inboxes.${CORPUS.length ? ` The corpus scenario sends the ${CORPUS.length} messages of tests/fixtures/real-mail in turn (mixed sizes, HTML, attachments, charsets, bare LF turned into CRLF as SMTP carries it).` : ''}`,
    'Each cell is the median of the runs with the range in brackets. Latency is from MAIL FROM to the final 250 (for Tempbox: after the SQLite commit). "cpu/msg" is the server process\'s user+system CPU per acknowledged message. After each run every acknowledged message is read back and compared byte for byte with what was sent (Tempbox: the source rebuilt from its database file; MailDev: its .eml download): "lost" were acknowledged and not found, "differ" were found with other bytes.',
    '',
    '| scenario | target | msg/s | p50 ms | p99 ms | cpu/msg ms | peak RSS MB | failed | lost | differ |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ]
  const of = (scenario: string, target: string) => results.filter((r) => r.scenario === scenario && r.target === target)
  /** Our msg/s over the sink's, pair by pair (empty without the sink). */
  const sinkShares = (scenario: string) => {
    const sink = of(scenario, SINK_NAME)
    return sink.length === 0 ? [] : of(scenario, targets.find((t) => t !== SINK_NAME)!).map((r, k) => r.perSecond / (sink[k]?.perSecond ?? Number.NaN))
  }
  const sum = (rs: Result[], key: 'failed' | 'lost' | 'mismatched') => rs.reduce((n, r) => n + r[key], 0)
  for (const s of SCENARIOS) {
    for (const t of targets) {
      const rs = of(s.name, t)
      if (rs.length === 0) continue
      const kept = t === SINK_NAME ? '— | —' : `${sum(rs, 'lost')} | ${sum(rs, 'mismatched')}`
      lines.push(`| ${s.name} | ${t} | ${spread(rs.map((r) => r.perSecond), 0)} | ${spread(rs.map((r) => r.p50), 1)} | ${spread(rs.map((r) => r.p99), 1)} | ${spread(rs.map((r) => r.cpuPerMessageMs), 2)} | ${fmt(Math.max(...rs.map((r) => r.rssPeakMb)), 0)} | ${sum(rs, 'failed')} | ${kept} |`)
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

  const [ours, peer] = targets.filter((t) => t !== SINK_NAME)
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

  if (targets.includes(SINK_NAME)) {
    lines.push(`${ours} against the bare smtp-server sink (the same SMTP library accepting and discarding each message: no parsing, no store, no fsync), each pair back to back:`, '')
    for (const s of SCENARIOS) {
      const shares = sinkShares(s.name)
      if (shares.length === 0) continue
      const sink = of(s.name, SINK_NAME)
      lines.push(`- ${s.name}: ${ours} at ${spread(shares, 2)} of the sink's msg/s (the sink ${spread(sink.map((r) => r.perSecond), 0)} msg/s, ${spread(sink.map((r) => r.cpuPerMessageMs), 2)} ms CPU/msg).`)
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
  for (const s of SCENARIOS.filter((x) => x.sinkShare !== undefined)) {
    const shares = sinkShares(s.name)
    if (shares.length === 0) continue
    const med = median(shares)
    verdicts.push(`≥ ${fmt(s.sinkShare! * 100, 0)} % of the sink's msg/s at ${s.name}, same run: **${med >= s.sinkShare! ? 'met' : 'not met'}** (median ${fmt(med * 100, 0)} %; ${shares.filter((x) => x >= s.sinkShare!).length} of ${shares.length} pairs at or above)`)
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

export function logResult(r: Result): void {
  console.log(`[bench] ${r.target.padEnd(14)} ${r.scenario.padEnd(42)} #${r.repeat + 1} ${r.perSecond.toFixed(0).padStart(6)} msg/s  p50 ${r.p50.toFixed(1)} ms  p99 ${r.p99.toFixed(1)} ms  cpu ${r.cpuPerMessageMs.toFixed(2)} ms/msg${Number.isNaN(r.serverCpuPerMessageMs) ? '' : ` (+ server ${r.serverCpuPerMessageMs.toFixed(2)})`}  rss ${r.rssPeakMb.toFixed(0)} MB  failed ${r.failed}${r.refusals.size ? ` [${[...r.refusals.keys()].join('; ')}]` : ''}  lost ${r.lost}  differ ${r.mismatched}  load ${r.load1.toFixed(1)}`)
}
