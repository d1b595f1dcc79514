import { spawn, spawnSync } from 'node:child_process'

export interface WrkResult {
  requests: number
  perSecond: number
  p50: number
  p90: number
  p99: number
  non2xx: number
  socketErrors: number
  timeouts: number
  bytesPerResponse: number
}

/** wrk (C, event loop) costs the shared cores far less per request than a Node load generator. */
export function hasWrk(): boolean {
  return spawnSync('wrk', ['--version']).error === undefined
}

const UNIT_MS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000 }
const SIZE: Record<string, number> = { B: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3 }

function ms(text: string | undefined): number {
  const m = /([\d.]+)(us|ms|s|m)/.exec(text ?? '')
  return m ? Number(m[1]) * UNIT_MS[m[2]!]! : Number.NaN
}

/** Runs wrk with latency percentiles and reads its report. */
export function runWrk(options: {
  url: string
  connections: number
  seconds: number
  headers?: Record<string, string>
  script?: string
  env?: Record<string, string>
}): Promise<WrkResult> {
  const args = ['-t1', `-c${options.connections}`, `-d${options.seconds}s`, '--latency', '--timeout', '5s']
  for (const [k, v] of Object.entries(options.headers ?? {})) args.push('-H', `${k}: ${v}`)
  if (options.script) args.push('-s', options.script)
  args.push(options.url)
  return new Promise((resolve, reject) => {
    const child = spawn('wrk', args, { env: { ...process.env, ...options.env } })
    let out = ''
    child.stdout.on('data', (d: Buffer) => (out += d.toString()))
    child.stderr.on('data', (d: Buffer) => (out += d.toString()))
    child.once('error', reject)
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`wrk exited with ${code}:\n${out}`))
      const pct = (p: string) => ms(new RegExp(`^\\s+${p}%\\s+(\\S+)`, 'm').exec(out)?.[1])
      const total = /(\d+) requests in [\d.]+\w+, ([\d.]+)(B|KB|MB|GB) read/.exec(out)
      const requests = Number(total?.[1] ?? 0)
      const errors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out)
      resolve({
        requests,
        perSecond: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? Number.NaN),
        p50: pct('50'),
        p90: pct('90'),
        p99: pct('99'),
        non2xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0),
        socketErrors: errors ? Number(errors[1]) + Number(errors[2]) + Number(errors[3]) : 0,
        timeouts: errors ? Number(errors[4]) : 0,
        bytesPerResponse: requests ? (Number(total![2]) * SIZE[total![3]!]!) / requests : 0,
      })
    })
  })
}
