/** One scenario's run against one target: the load, what it cost the target, and the read-back of every 250. */
import { loadavg } from 'node:os'
import { cpuMs, rssMb, threadCpuMs, treeCpuMs } from '../processes.js'
import { SmtpClient } from '../smtp-client.js'
import { equalsParts, makeMessage } from './messages.js'
import type { Scenario } from './settings.js'

export interface Result {
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

export interface Target {
  name: string
  /** The SMTP port of each ingest node: connections are spread over them in turn, as a balancer would. */
  ports: number[]
  /** Each ingest node's process: CPU and memory are their sums; the thread breakdown is the first node's. */
  pids: number[]
  /** The database server's main process (PostgreSQL's postmaster), whose process tree's CPU is counted too. */
  serverPid?: number
  recipient: (i: number) => string
  /** Keeps nothing (the bare sink): no read-back, so no message counts as lost. */
  discards?: boolean
  /** Every message stored since the last call, by bench id; the store is emptied afterwards, as each run starts from an empty store. */
  takeStored: () => Promise<{ byId: Map<string, Buffer>; unnamed: number }>
  stop: () => Promise<void>
}

export async function runScenario(target: Target, scenario: Scenario, tag: string, repeat: number): Promise<Result> {
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
  for (const [id, parts] of target.discards ? [] : expected) {
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
