/**
 * CPU of the two steps ingest's parse worker runs on every message — mailparser (`parseMessage`) and the derivation of
 * the stored view (`deriveView`: preview, codes, links, text of HTML, sanitized HTML) — in this process, for the SMTP
 * benchmark's synthetic messages and for the real-mail corpus. Writes `## Parse and derivation CPU per message` in
 * BENCHMARKS.md.
 *
 *   pnpm bench derive          (or: cd bench && pnpm exec tsx derive-cost.ts)
 *   BENCH_REPEATS=3 …          rounds (median and range reported)
 *   BENCH_MESSAGES=300 …       messages per synthetic kind per round
 *   BENCH_NO_WRITE=1 …         print without writing BENCHMARKS.md
 */
import { readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { deriveView } from '../apps/mail-ingest/src/derive-view.js'
import { parseMessage, type ParsedMessage } from '../apps/mail-ingest/src/parse-message.js'
import { BenchRun } from './lib/bench-run.js'
import { writeBenchmarkSection } from './lib/benchmarks-md.js'
import { buildHtmlMessage, buildMessage } from './lib/smtp-client.js'
import { spread, realMailFiles } from './lib/stats.js'

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const bench = new BenchRun('derive')
const REPEATS = Math.max(1, Math.round(bench.number('BENCH_REPEATS', 3)))
const MESSAGES = Math.max(10, Math.round(bench.number('BENCH_MESSAGES', 300)))

const synthetic = (build: typeof buildMessage, bytes: number) =>
  Array.from({ length: MESSAGES }, (_, i) => build(bytes, 'load@sender.test', `bench${i % 64}@bench.tempbox.local`, `derive-${i}`))
const corpus = realMailFiles(REPO_ROOT).map((file) => Buffer.from(readFileSync(file).toString('latin1').replace(/\r\n|\r|\n/g, '\r\n'), 'latin1'))

const KINDS: Array<{ name: string; messages: Buffer[] }> = [
  { name: '2 KB text (as `pnpm bench smtp` sends)', messages: synthetic(buildMessage, 2048) },
  { name: '100 KB text', messages: synthetic(buildMessage, 100 * 1024) },
  { name: '20 KB text + HTML, quoted-printable', messages: synthetic(buildHtmlMessage, 20 * 1024) },
  { name: `real-mail corpus (all ${corpus.length} messages)`, messages: corpus },
]

const cpuMs = (start: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(start)
  return (used.user + used.system) / 1000
}

/**
 * Each step over a whole batch, timed as one: per-call timing would charge the garbage of one step to the next. What
 * a batch leaves for the collector is still paid in the step that made it, as in the parse worker.
 */
async function round(messages: Buffer[]): Promise<{ parseMs: number; deriveMs: number }> {
  const parsed: ParsedMessage[] = []
  const p0 = process.cpuUsage()
  for (const raw of messages) parsed.push(await parseMessage(raw))
  const parseMs = cpuMs(p0) / messages.length
  const d0 = process.cpuUsage()
  for (const message of parsed) deriveView(message)
  return { parseMs, deriveMs: cpuMs(d0) / messages.length }
}

// Warm-up, so the JIT has compiled both steps for every kind before anything is timed.
for (const kind of KINDS) await round(kind.messages.slice(0, 50))

const results = new Map<string, Array<{ parseMs: number; deriveMs: number }>>(KINDS.map((k) => [k.name, []]))
for (let r = 0; r < REPEATS; r++) {
  for (const kind of KINDS) {
    const m = await round(kind.messages)
    results.get(kind.name)!.push(m)
    console.log(`[derive] #${r + 1} ${kind.name.padEnd(44)} parse ${m.parseMs.toFixed(3)} ms  derive ${m.deriveMs.toFixed(3)} ms per message`)
  }
}

const body = [
  bench.measured(),
  '',
  `In one process, the parse worker's two steps over a batch of messages (${MESSAGES} per synthetic kind, built by bench/lib/smtp-client.ts; the corpus of tests/fixtures/real-mail with CRLF line ends), each step timed over the whole batch as user + system CPU and divided by the batch's size; ${REPEATS} round${REPEATS > 1 ? 's' : ''} after a warm-up, median with the range in brackets.`,
  '',
  '| messages | parse ms per message | derive ms per message |',
  '|---|---:|---:|',
  ...KINDS.map((k) => `| ${k.name} | ${spread(results.get(k.name)!.map((m) => m.parseMs), 2)} | ${spread(results.get(k.name)!.map((m) => m.deriveMs), 2)} |`),
].join('\n')
console.log(`\n${body}`)
if (!process.env.BENCH_NO_WRITE) writeBenchmarkSection(REPO_ROOT, '## Parse and derivation CPU per message', body)
