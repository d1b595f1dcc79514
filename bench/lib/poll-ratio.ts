import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { request } from 'node:http'
import { join } from 'node:path'
import autocannon from 'autocannon'
import { freePort, spawnUntil, treeCpuMs } from './processes.js'

/** Headers node:http writes itself on every answer, on both sides: the reference gets every other header as sent. */
const NODE_OWN = new Set(['date', 'connection', 'keep-alive'])

/** A response's headers as sent, in order, as a flat name/value list, but for those node:http adds itself. */
export function headersAsSent(raw: string[]): string[] {
  return raw.flatMap((v, i) => (i % 2 === 0 && !NODE_OWN.has(v.toLowerCase()) ? [v, raw[i + 1]!] : []))
}

export interface RatioRow {
  answer: '200 cached listing' | '304 revalidation'
  /** Mean req/s of each api slot and each reference slot, in the order measured (ABBA…). */
  api: number[]
  bare: number[]
  apiBytes: number
  bareBytes: number
  /** API CPU per answer (user + system), µs, over its slots. */
  apiCpuUs: number
  ratio: number
}

interface Captured {
  status: number
  etag: string | undefined
  /** Every header as sent, in order, as a flat name/value list, but for those node:http adds itself. */
  rawHeaders: string[]
  body: Buffer
  /** Every byte of the status line and headers as sent (Date and Connection included). */
  headBytes: number
  /** The server's keep-alive timeout as its Keep-Alive header says, in seconds. */
  keepAliveSeconds: number | undefined
}

/** One answer as sent: node:http, not fetch, which would decompress the body. */
function capture(url: string, headers: Record<string, string>): Promise<Captured> {
  return new Promise((ok, fail) => {
    request(url, { headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => {
        const raw = res.rawHeaders
        let head = `HTTP/1.1 ${res.statusCode} ${res.statusMessage}\r\n\r\n`
        for (let i = 0; i < raw.length; i += 2) head += `${raw[i]}: ${raw[i + 1]}\r\n`
        ok({
          status: res.statusCode!,
          etag: res.headers.etag,
          rawHeaders: headersAsSent(raw),
          body: Buffer.concat(chunks),
          headBytes: Buffer.byteLength(head),
          keepAliveSeconds: Number(/timeout=(\d+)/.exec(String(res.headers['keep-alive']))?.[1]) || undefined,
        })
      })
    })
      .once('error', fail)
      .end()
  })
}

async function run(url: string, headers: Record<string, string>, connections: number, seconds: number, status: number): Promise<number> {
  const result = await autocannon({ url, connections, duration: seconds, headers })
  const counts = result.statusCodeStats ?? {}
  const wrong = Object.entries(counts).filter(([code]) => Number(code) !== status)
  if (wrong.length || result.errors || result.timeouts) {
    throw new Error(`${url}: expected only ${status}, got ${JSON.stringify(counts)}, ${result.errors} errors, ${result.timeouts} timeouts`)
  }
  return result.requests.average
}

/**
 * The api's poll answer against a bare node:http server sending the same bytes (status line, every header, body; only
 * Date differs, by its time): the same autocannon,
 * the same run, alternating api, bare, bare, api (ABBA) so a change in the shared machine's load falls on both.
 */
export async function measurePollRatio(options: { benchDir: string; apiUrl: string; apiPid: number; address: string; connections: number; seconds: number; rounds: number; log: (line: string) => void }): Promise<RatioRow[]> {
  const { benchDir, apiPid, connections, seconds, rounds, log } = options
  const url = `${options.apiUrl}/api/email/${options.address}`
  const browser = { 'accept-encoding': 'gzip, deflate, br' }
  const ok = await capture(url, browser)
  if (ok.status !== 200 || !ok.etag) throw new Error(`listing answered ${ok.status} with no ETag`)
  const revalidate = { ...browser, 'if-none-match': ok.etag }
  const notModified = await capture(url, revalidate)
  if (notModified.status !== 304) throw new Error(`revalidation answered ${notModified.status}`)

  const dir = mkdtempSync(join(tmpdir(), 'tempbox-poll-ratio-'))
  const file = join(dir, 'response.json')
  writeFileSync(file, JSON.stringify({ keepAliveSeconds: ok.keepAliveSeconds, etag: ok.etag, headers: ok.rawHeaders, body: ok.body.toString('base64'), notModified: notModified.rawHeaders }))
  const port = await freePort()
  // BENCH_BARE_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' profiles the reference, as BENCH_API_NODE_ARGS the api.
  const nodeArgs = process.env.BENCH_BARE_NODE_ARGS?.split(' ').filter(Boolean) ?? []
  const bare = await spawnUntil(process.execPath, [...nodeArgs, join(benchDir, 'lib/bare-http-server.mjs'), String(port), file], { cwd: benchDir, readyText: 'bare http listening' })
  const bareUrl = `http://127.0.0.1:${port}/`
  const rows: RatioRow[] = []
  try {
    const bareOk = await capture(bareUrl, browser)
    const bareNotModified = await capture(bareUrl, revalidate)
    const same = (a: Captured, b: Captured) => a.status === b.status && a.body.equals(b.body) && a.headBytes === b.headBytes && a.rawHeaders.join('\n') === b.rawHeaders.join('\n')
    if (!same(ok, bareOk) || !same(notModified, bareNotModified)) throw new Error('the reference does not answer byte for byte as the api does')
    for (const [answer, headers, status, api, ref] of [
      ['200 cached listing', browser, 200, ok, bareOk],
      ['304 revalidation', revalidate, 304, notModified, bareNotModified],
    ] as const) {
      // Warm-up of both (JIT, caches), not counted.
      await run(url, headers, connections, 2, status)
      await run(bareUrl, headers, connections, 2, status)
      const row: RatioRow = { answer, api: [], bare: [], apiBytes: api.headBytes + api.body.length, bareBytes: ref.headBytes + ref.body.length, apiCpuUs: 0, ratio: 0 }
      let apiCpuMs = 0
      let apiRequests = 0
      for (let i = 0; i < rounds; i++) {
        const order = i % 2 === 0 ? ['api', 'bare'] : ['bare', 'api']
        for (const who of order) {
          if (who === 'bare') {
            row.bare.push(await run(bareUrl, headers, connections, seconds, status))
            continue
          }
          const cpuBefore = treeCpuMs(apiPid)
          const perSecond = await run(url, headers, connections, seconds, status)
          apiCpuMs += treeCpuMs(apiPid) - cpuBefore
          apiRequests += perSecond * seconds
          row.api.push(perSecond)
        }
      }
      const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length
      row.ratio = mean(row.api) / mean(row.bare)
      row.apiCpuUs = (apiCpuMs * 1000) / apiRequests
      rows.push(row)
      log(
        `[inbox-poll] ${answer}: api ${row.api.map((v) => v.toFixed(0)).join(', ')} req/s; bare node:http ${row.bare.map((v) => v.toFixed(0)).join(', ')} req/s; ratio ${row.ratio.toFixed(3)}; api ${row.apiBytes} bytes/answer, bare ${row.bareBytes}; api CPU ${row.apiCpuUs.toFixed(0)} µs/answer`,
      )
    }
  } finally {
    await bare.stop()
    rmSync(dir, { recursive: true, force: true })
  }
  return rows
}
