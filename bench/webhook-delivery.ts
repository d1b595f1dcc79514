/**
 * Webhooks: (1) delivery latency, from the SMTP `250` (the message and its delivery committed by mail-ingest) to the
 * POST arriving at a receiver on loopback, 1,000 messages one after another (target p50 ≤ 100 ms); (2) ingest
 * throughput to 1,000 inboxes with a webhook each against the same inboxes without (target: no more than 10 % below).
 *
 * On a shared 2-core machine wall-clock rounds differ by ±40 % from one to the next, so (2) is judged two ways: msg/s
 * in A/B pairs interleaved over one stack (ABBA: which kind goes first alternates), read as the median of the per-pair
 * ratios; and CPU time per message of each process (mail-ingest, the api making the deliveries, the receiver),
 * read from /proc, which a neighbour's load hardly moves. The receiver runs in a process of its own, as a customer's
 * system would, so its work is counted apart and does not slow the load generator's event loop.
 *
 *   pnpm bench webhook        (or: cd bench && pnpm exec tsx webhook-delivery.ts)
 *   BENCH_MESSAGES=200 …  fewer latency messages;  BENCH_ROUND_MESSAGES=2000 … messages per throughput round;
 *   BENCH_ROUNDS=8 … A/B pairs;  BENCH_NO_WRITE=1 … don't touch BENCHMARKS.md
 *   BENCH_INBOXES=1000 … inboxes of each kind in the throughput rounds
 *   BENCH_BASELINE_ROOT=/path/to/other/checkout … the throughput rounds also run that checkout's api and mail-ingest (a
 *     stack of their own, same receiver), each pair of this checkout followed or preceded by a pair of the baseline's:
 *     a before/after measured at the same load. The table then has both.
 *
 * The receiver keeps every delivery; after each phase its signature is checked against its inbox's secret
 * (@tempbox/client's verifyWebhookSignature) and its Tempbox-Delivery id against those before: the run fails on a bad
 * signature or a delivery missing.
 */
import { fork } from 'node:child_process'
import { loadavg } from 'node:os'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { generateAddress as generate, startApiStack } from './lib/api-stack.js'
import { BenchRun } from './lib/bench-run.js'
import { percentile, writeBenchmarkSection } from './lib/benchmarks-md.js'
import { cpuMs } from './lib/processes.js'
import { buildMessage, SmtpClient } from './lib/smtp-client.js'

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const DOMAIN = 'bench.tempbox.local'
const bench = new BenchRun('webhook')
const MESSAGES = bench.number('BENCH_MESSAGES', 1000)
const INBOXES = bench.number('BENCH_INBOXES', 1000)
const ROUND_MESSAGES = bench.number('BENCH_ROUND_MESSAGES', 2000)
const ROUNDS = bench.number('BENCH_ROUNDS', 8)
const CONNECTIONS = 16
const BASELINE_ROOT = bench.text('BENCH_BASELINE_ROOT') || undefined

async function setWebhook(apiUrl: string, address: string, url: string): Promise<void> {
  const res = await fetch(`${apiUrl}/api/email/${address}/webhook`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ url }) })
  if (res.status !== 201) throw new Error(`webhook: ${res.status} ${await res.text()}`)
  const { secret } = (await res.json()) as { secret: string }
  receiver.send({ secret: { address, secret } })
}

// The receiver (bench/lib/webhook-receiver.mjs): reports each arrival while watched, its count when asked, and checks
// the deliveries it kept when asked.
interface Checked { checked: number; bad: number; duplicates: number }
type ReceiverMessage = { url: string } | { subject: string; at: number } | { received: number } | Checked
const receiver = fork(resolve(dirname(fileURLToPath(import.meta.url)), 'lib/webhook-receiver.mjs'), { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
const arrivals = new Map<string, (at: number) => void>()
let countAsked: ((n: number) => void) | null = null
let checkAsked: ((c: Checked) => void) | null = null
const hookUrl = await new Promise<string>((ok) => {
  receiver.on('message', (m: ReceiverMessage) => {
    if ('url' in m) ok(m.url)
    else if ('subject' in m) arrivals.get(m.subject)?.(m.at)
    else if ('checked' in m) checkAsked?.(m)
    else countAsked?.(m.received)
  })
})
const receivedCount = () => new Promise<number>((ok) => ((countAsked = ok), receiver.send({ count: true })))
const checks = { expected: 0, checked: 0, bad: 0, duplicates: 0 }
/** Checks the deliveries since the last call, `expected` of them, outside any CPU count. */
async function checkDeliveries(expected: number): Promise<void> {
  const c = await new Promise<Checked>((ok) => ((checkAsked = ok), receiver.send({ check: true })))
  checks.expected += expected
  checks.checked += c.checked
  checks.bad += c.bad
  checks.duplicates += c.duplicates
}
const wallNow = () => performance.timeOrigin + performance.now()

const STACK_ENV = { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_MAX_QUEUED: '1000000', WEBHOOK_MAX_QUEUED_PER_INBOX: '100000', WEBHOOK_SET_PER_MINUTE: '100000' }
const stack = await startApiStack(REPO_ROOT, { withIngest: true, domain: DOMAIN, env: STACK_ENV })
const baseline = BASELINE_ROOT ? await startApiStack(BASELINE_ROOT, { withIngest: true, domain: DOMAIN, env: STACK_ENV }) : null
type Cpu = Record<'ingest' | 'api' | 'receiver' | 'loadGenerator', number>
const cpuOfStack = (s: typeof stack) => (): Cpu => ({
  ingest: cpuMs(s.ingest!.child.pid!),
  api: cpuMs(s.api.child.pid!),
  receiver: cpuMs(receiver.pid!),
  loadGenerator: (process.cpuUsage().user + process.cpuUsage().system) / 1000,
})
try {
  // (1) Latency: one message in flight at a time, as a sign-up flow sends.
  const address = await generate(stack.apiUrl)
  await setWebhook(stack.apiUrl, address, hookUrl)
  receiver.send({ watch: true })
  const client = await SmtpClient.open(stack.smtpPort)
  const latencies: number[] = []
  for (let i = 0; i < MESSAGES; i++) {
    const subject = `hook-${i}`
    const seen = new Promise<number>((r) => arrivals.set(subject, r))
    const reply = await client.send('bench@sender.test', address, buildMessage(2048, 'bench@sender.test', address, subject))
    const ackedAt = wallNow()
    if (!reply.startsWith('250')) throw new Error(`message ${i}: ${reply}`)
    const at = await seen
    arrivals.delete(subject)
    // A POST that arrives before the 250 reached us (the commit is seen before the reply travels) counts as 0.
    latencies.push(Math.max(0, at - ackedAt))
  }
  receiver.send({ watch: false })
  await client.quit()
  await checkDeliveries(MESSAGES)
  latencies.sort((a, b) => a - b)
  const p50 = percentile(latencies, 50)
  const p99 = percentile(latencies, 99)
  const max = latencies[latencies.length - 1]!
  console.log(`[webhook latency] ${latencies.length} messages: p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${max.toFixed(1)} ms after the 250`)

  // (2) Throughput over many inboxes, without webhooks and with them, in interleaved pairs.
  interface Round {
    msgPerSec: number
    /** CPU ms per message of each process, from the round's first message until it is settled (all deliveries made). */
    cpu: Cpu
    /** From the last 250 until the last delivery arrived (with webhooks). */
    tailMs: number
  }
  interface Target {
    name: string
    smtpPort: number
    plain: string[]
    hooked: string[]
    cpuNow: () => Cpu
    without: Round[]
    withHooks: Round[]
  }
  const prepare = async (name: string, s: typeof stack): Promise<Target> => {
    const plain: string[] = []
    const hooked: string[] = []
    for (let i = 0; i < INBOXES; i++) plain.push(await generate(s.apiUrl))
    for (let i = 0; i < INBOXES; i++) {
      const a = await generate(s.apiUrl)
      await setWebhook(s.apiUrl, a, hookUrl)
      hooked.push(a)
    }
    return { name, smtpPort: s.smtpPort, plain, hooked, cpuNow: cpuOfStack(s), without: [], withHooks: [] }
  }
  const targets = [await prepare('this checkout', stack)]
  if (baseline) targets.push(await prepare('baseline', baseline))
  const round = async (t: Target, inboxes: string[], tag: string, deliveries: boolean): Promise<Round> => {
    // Opened for each round, before its clock and CPU count start: connections kept from one round to the next sat idle
    // while the other stack took its turn, and at high load mail-ingest's idle timeout closed them (`000 connection closed`).
    const clients = await Promise.all(Array.from({ length: CONNECTIONS }, () => SmtpClient.open(t.smtpPort)))
    const before = deliveries ? await receivedCount() : 0
    const cpu0 = t.cpuNow()
    let next = 0
    const started = performance.now()
    await Promise.all(
      clients.map(async (c) => {
        for (let i = next++; i < ROUND_MESSAGES; i = next++) {
          const to = inboxes[i % inboxes.length]!
          const reply = await c.send('bench@sender.test', to, buildMessage(2048, 'bench@sender.test', to, `${tag}-${i}`))
          if (!reply.startsWith('250')) throw new Error(`${tag} ${i}: ${reply}`)
        }
      }),
    )
    const sent = performance.now()
    if (deliveries) while ((await receivedCount()) - before < ROUND_MESSAGES) await new Promise((res) => setTimeout(res, 10))
    const tailMs = performance.now() - sent
    const cpu1 = t.cpuNow()
    await Promise.all(clients.map((c) => c.quit()))
    await checkDeliveries(deliveries ? ROUND_MESSAGES : 0)
    const cpu = Object.fromEntries(Object.keys(cpu0).map((k) => [k, (cpu1[k as keyof Cpu] - cpu0[k as keyof Cpu]) / ROUND_MESSAGES])) as Cpu
    return { msgPerSec: ROUND_MESSAGES / ((sent - started) / 1000), cpu, tailMs }
  }
  // Warm-up, not counted: the first round of each kind pays for JIT compilation and growing the file.
  for (const t of targets) {
    await round(t, t.plain, 'warm-plain', false)
    await round(t, t.hooked, 'warm-hooked', true)
  }
  const loads: number[] = []
  for (let r = 0; r < ROUNDS; r++) {
    // ABBA twice over: which kind goes first alternates, and so does which checkout.
    for (const t of r % 2 === 0 ? targets : [...targets].reverse()) {
      const plainRound = async () => t.without.push(await round(t, t.plain, `plain-${r}`, false))
      const hookedRound = async () => t.withHooks.push(await round(t, t.hooked, `hooked-${r}`, true))
      if (r % 2 === 0) {
        await plainRound()
        await hookedRound()
      } else {
        await hookedRound()
        await plainRound()
      }
      const [a, b] = [t.without.at(-1)!, t.withHooks.at(-1)!]
      console.log(
        `[throughput] ${t.name} pair ${r + 1}: without ${a.msgPerSec.toFixed(0)} msg/s (ingest ${a.cpu.ingest.toFixed(2)} ms CPU/msg), with ${b.msgPerSec.toFixed(0)} msg/s (ingest ${b.cpu.ingest.toFixed(2)}, api ${b.cpu.api.toFixed(2)}, receiver ${b.cpu.receiver.toFixed(2)} ms CPU/msg; last delivery ${b.tailMs.toFixed(0)} ms after the last 250) (load ${loadavg()[0]!.toFixed(1)})`,
      )
    }
    loads.push(loadavg()[0]!)
  }
  const median = (xs: number[]) => percentile([...xs].sort((a, b) => a - b), 50)
  const range = (xs: number[], digits = 0) => `${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)}`
  const pct = (x: number) => `${x >= 1 ? '+' : ''}${((x - 1) * 100).toFixed(1)} %`
  const rates = (rs: Round[]) => rs.map((r) => r.msgPerSec)
  const cpuOf = (rs: Round[], k: keyof Cpu) => median(rs.map((r) => r.cpu[k]))
  const serverCpu = (rs: Round[]) => median(rs.map((r) => r.cpu.ingest + r.cpu.api + r.cpu.receiver))
  const summary = (t: Target) => {
    const ratios = t.withHooks.map((w, i) => w.msgPerSec / t.without[i]!.msgPerSec)
    return { ratios, ratio: median(ratios), ingestRatio: cpuOf(t.withHooks, 'ingest') / cpuOf(t.without, 'ingest'), tails: t.withHooks.map((r) => r.tailMs) }
  }
  for (const t of targets) {
    const { ratios, ratio, ingestRatio } = summary(t)
    console.log(
      `[throughput] ${t.name}: msg/s median without ${median(rates(t.without)).toFixed(0)} (${range(rates(t.without))}), with ${median(rates(t.withHooks)).toFixed(0)} (${range(rates(t.withHooks))}); per-pair ratio median ${pct(ratio)} (${pct(Math.min(...ratios))} to ${pct(Math.max(...ratios))}); ingest CPU/msg ${cpuOf(t.without, 'ingest').toFixed(2)} → ${cpuOf(t.withHooks, 'ingest').toFixed(2)} ms (${pct(ingestRatio)}); api ${cpuOf(t.without, 'api').toFixed(2)} → ${cpuOf(t.withHooks, 'api').toFixed(2)} ms; receiver ${cpuOf(t.withHooks, 'receiver').toFixed(2)} ms; load ${range(loads, 1)}`,
    )
  }

  const checkedLine = `Every delivery checked (warm-up rounds included): ${checks.checked} arrived of ${checks.expected} expected, ${checks.bad} with a bad signature (HMAC-SHA256 under its inbox's secret, @tempbox/client's \`verifyWebhookSignature\`), ${checks.duplicates} duplicates (a \`Tempbox-Delivery\` id seen before).`
  console.log(`[webhook] ${checkedLine}`)
  if (checks.bad > 0 || checks.checked < checks.expected) throw new Error(`[webhook] ${checks.bad} deliveries with a bad signature, ${checks.expected - checks.checked} missing: no figures are written`)
  if (!process.env.BENCH_NO_WRITE) {
    const fmt = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(', ')
    const ms = (x: number) => `${x.toFixed(2)} ms`
    const label = (t: Target, what: string) => (targets.length > 1 ? `${t.name}: ${what}` : what)
    writeBenchmarkSection(
      REPO_ROOT,
      '## Webhook delivery',
      [
        bench.measured(),
        '',
        `Latency: time from the SMTP \`250\` to the webhook POST arriving at a receiver on loopback (a process of its own, a raw \`node:http\` server answering 200 at once), ${latencies.length} messages of 2 KB sent one after another to one inbox. Target: p50 ≤ 100 ms.`,
        '',
        '| messages | p50 | p99 | max |',
        '|---:|---:|---:|---:|',
        `| ${latencies.length} | ${p50.toFixed(1)} ms | ${p99.toFixed(1)} ms | ${max.toFixed(1)} ms |`,
        '',
        `Ingest throughput: rounds of ${ROUND_MESSAGES} messages of 2 KB over ${CONNECTIONS} SMTP connections, spread over ${INBOXES} inboxes without webhooks or over ${INBOXES} inboxes with a webhook each; ${ROUNDS} pairs of rounds, interleaved (ABBA: which kind goes first alternates), after one warm-up round of each kind.${targets.length > 1 ? ' The same rounds against a baseline checkout (`BENCH_BASELINE_ROOT`, a stack of its own, same receiver), its pair and this checkout\'s pair taking turns to go first: a before/after at the same load.' : ''} msg/s counts until the last \`250\`; CPU per message counts each process from a round's first message until the round is settled (with webhooks: until every delivery has arrived). mail-ingest, the api making the deliveries, the receiver and the load generator share the 2 cores. The receiver keeps the bodies unparsed in these rounds (what a fast receiver costs is Node's HTTP server per request); their signatures are checked after each round, outside its CPU count. Target: with webhooks no more than 10 % below.`,
        '',
        '| | pairs (msg/s) | median | range |',
        '|---|---|---:|---:|',
        ...targets.flatMap((t) => {
          const { ratios, ratio } = summary(t)
          return [
            `| ${label(t, 'without webhooks')} | ${fmt(rates(t.without))} | ${median(rates(t.without)).toFixed(0)} msg/s | ${range(rates(t.without))} |`,
            `| ${label(t, 'with webhooks')} | ${fmt(rates(t.withHooks))} | ${median(rates(t.withHooks)).toFixed(0)} msg/s | ${range(rates(t.withHooks))} |`,
            `| ${label(t, 'with / without, per pair')} | ${ratios.map(pct).join(', ')} | ${pct(ratio)} | ${pct(Math.min(...ratios))} to ${pct(Math.max(...ratios))} |`,
          ]
        }),
        '',
        'CPU time per message (median over the rounds of each kind):',
        '',
        '| | mail-ingest | api | receiver | the three together | load generator |',
        '|---|---:|---:|---:|---:|---:|',
        ...targets.flatMap((t) => [
          `| ${label(t, 'without webhooks')} | ${ms(cpuOf(t.without, 'ingest'))} | ${ms(cpuOf(t.without, 'api'))} | ${ms(cpuOf(t.without, 'receiver'))} | ${ms(serverCpu(t.without))} | ${ms(cpuOf(t.without, 'loadGenerator'))} |`,
          `| ${label(t, 'with webhooks')} | ${ms(cpuOf(t.withHooks, 'ingest'))} | ${ms(cpuOf(t.withHooks, 'api'))} | ${ms(cpuOf(t.withHooks, 'receiver'))} | ${ms(serverCpu(t.withHooks))} | ${ms(cpuOf(t.withHooks, 'loadGenerator'))} |`,
        ]),
        '',
        ...targets.flatMap((t, i) => {
          const { ingestRatio, tails } = summary(t)
          const line = `${targets.length > 1 ? `${t.name}: ` : ''}mail-ingest's own CPU per message with webhooks: ${pct(ingestRatio)}. Last delivery of a round after its last \`250\`: median ${median(tails).toFixed(0)} ms (${range(tails)}).`
          return i === 0 ? [line] : ['', line]
        }),
        '',
        `1-min load average after each pair: ${loads.map((l) => l.toFixed(1)).join(', ')}.`,
        '',
        checkedLine,
      ].join('\n'),
    )
  }
} catch (error) {
  // A refused message says only "could not store": the servers' own words say why.
  console.error(`api output:\n${stack.api.output().slice(-4000)}\nmail-ingest output:\n${stack.ingest?.output().slice(-4000)}`)
  throw error
} finally {
  await Promise.all([stack.stop(), baseline?.stop()])
  receiver.disconnect()
}
