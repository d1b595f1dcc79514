/** wrk against api nodes or the bare reference: saturation, then paced load, each row kept in `runs`. */
import { loadavg } from 'node:os'
import { request } from 'node:http'
import { headersAsSent } from '../poll-ratio.js'
import { treeCpuMs, treeRssMb } from '../processes.js'
import { runWrk, type WrkResult } from '../wrk.js'
import { CONNECTIONS, PACED_SCRIPT, RATE, REPEATS, SECONDS } from './settings.js'

export const ENCODINGS: { label: string; headers: Record<string, string> }[] = [
  { label: 'br (as browsers ask)', headers: { 'Accept-Encoding': 'gzip, deflate, br' } },
  { label: 'plain JSON', headers: {} },
]

/** One response exactly as the api sends it (every header in order, compressed body), for the bare reference server. */
export function captureResponse(url: string, headers: Record<string, string>): Promise<{ headers: string[]; body: string }> {
  return new Promise((ok, fail) => {
    request(url, { headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => {
        ok({
          headers: headersAsSent(res.rawHeaders),
          body: Buffer.concat(chunks).toString('base64'),
        })
      })
    })
      .once('error', fail)
      .end()
  })
}

export interface Run {
  /** Which server: SQLite with its api processes, PostgreSQL with its api nodes, or the bare reference. */
  server: string
  /** An api (not the bare reference). */
  api: boolean
  encoding: string
  load: string
  requests: number
  perSecond: number
  p50: number
  p90: number
  p99: number
  /** Lowest and highest p99 over the repeats. */
  p99Range: [number, number]
  repeats: number
  failures: number
  bytesPerResponse: number
  cpuPerRequestUs: number
  apiCpuPercent: number
  apiRssMb: number
  /** The machine's 1-min load average when the measurement ended (the cores are shared). */
  loadAverage: number
}

export const runs: Run[] = []

/**
 * Several api nodes are polled at once, each by a wrk of its own with its share of the connections and of the rate:
 * their counts add up, and each latency percentile is the worse node's (the one a poller may get).
 */
async function runWrkOn(urls: string[], options: Omit<Parameters<typeof runWrk>[0], 'url'>, rate?: number): Promise<WrkResult> {
  const each = await Promise.all(
    urls.map((url) =>
      runWrk({
        ...options,
        url,
        connections: Math.round(options.connections / urls.length),
        ...(rate === undefined ? {} : { script: PACED_SCRIPT, env: { WRK_RATE: String(Math.round(rate / urls.length)) } }),
      }),
    ),
  )
  const sum = (pick: (r: WrkResult) => number) => each.reduce((total, r) => total + pick(r), 0)
  const worst = (pick: (r: WrkResult) => number) => Math.max(...each.map(pick))
  return {
    requests: sum((r) => r.requests),
    perSecond: sum((r) => r.perSecond),
    p50: worst((r) => r.p50),
    p90: worst((r) => r.p90),
    p99: worst((r) => r.p99),
    non2xx: sum((r) => r.non2xx),
    socketErrors: sum((r) => r.socketErrors),
    timeouts: sum((r) => r.timeouts),
    bytesPerResponse: each[0]!.bytesPerResponse,
  }
}

/**
 * Warm-up, then saturation and paced load against `urls` (one per api node), with the CPU of the process trees under
 * `pids` (the api processes, and the database server where it is one of its own).
 */
export async function measure(server: string, api: boolean, pids: number[], urls: string[], encoding: (typeof ENCODINGS)[number]): Promise<void> {
  const treesCpuMs = () => pids.reduce((total, pid) => total + treeCpuMs(pid), 0)
  // Warm-up: JIT and caches, not counted.
  await runWrkOn(urls, { connections: 100, seconds: 2, headers: encoding.headers })
  for (const load of ['saturation', `paced ${RATE.toLocaleString('en-US')}/s`]) {
    // Tail latency on shared cores swings from run to run: paced load is measured several times and the median kept.
    const repeats = load === 'saturation' ? 1 : REPEATS
    const results: WrkResult[] = []
    const cpuBefore = treesCpuMs()
    for (let i = 0; i < repeats; i++) {
      results.push(await runWrkOn(urls, { connections: CONNECTIONS, seconds: SECONDS, headers: encoding.headers }, load === 'saturation' ? undefined : RATE))
    }
    const cpu = treesCpuMs() - cpuBefore
    const requests = results.reduce((sum, r) => sum + r.requests, 0)
    const median = (pick: (r: WrkResult) => number) => results.map(pick).sort((a, b) => a - b)[Math.floor(results.length / 2)]!
    const p99s = results.map((r) => r.p99)
    const run: Run = {
      server,
      api,
      encoding: encoding.label,
      load,
      requests,
      perSecond: median((r) => r.perSecond),
      p50: median((r) => r.p50),
      p90: median((r) => r.p90),
      p99: median((r) => r.p99),
      p99Range: [Math.min(...p99s), Math.max(...p99s)],
      repeats,
      failures: results.reduce((sum, r) => sum + r.non2xx + r.socketErrors + r.timeouts, 0),
      bytesPerResponse: median((r) => r.bytesPerResponse),
      cpuPerRequestUs: requests ? (cpu * 1000) / requests : Number.NaN,
      apiCpuPercent: (cpu / (repeats * SECONDS * 1000)) * 100,
      apiRssMb: pids.reduce((total, pid) => total + treeRssMb(pid), 0),
      loadAverage: loadavg()[0]!,
    }
    runs.push(run)
    console.log(
      `[inbox-poll] ${server}, ${run.encoding}, ${run.load}: ${run.perSecond.toFixed(0)} GET/s, p50 ${run.p50.toFixed(1)} ms, p90 ${run.p90.toFixed(1)} ms, p99 ${run.p99.toFixed(1)} ms (${run.p99Range.map((v) => v.toFixed(1)).join('–')} over ${run.repeats}), ${run.failures} wrk timeouts/errors, ${run.cpuPerRequestUs.toFixed(0)} µs CPU/GET, ${(run.bytesPerResponse / 1024).toFixed(1)} KB/response, CPU ${run.apiCpuPercent.toFixed(0)} %, RSS ${run.apiRssMb.toFixed(0)} MB, load average ${run.loadAverage.toFixed(1)}`,
    )
  }
}
