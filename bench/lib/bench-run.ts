import { readdirSync } from 'node:fs'
import { loadavg } from 'node:os'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { machineLine } from './benchmarks-md.js'

export const BENCH_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..')

/** The benches `pnpm bench <filters…>` runs: every `*.ts` file in bench/ whose name contains one of the filters. */
export function benchFiles(filters: string[]): string[] {
  return readdirSync(BENCH_DIR)
    .filter((f) => f.endsWith('.ts') && f !== 'run-all.ts' && !f.endsWith('.d.ts'))
    .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
    .sort()
}

const LOAD_SAMPLE_MS = 5_000
/** Switches the shared helpers read (lib/api-stack.ts, lib/ingest-process.ts), whichever bench runs them. */
const HELPER_SWITCHES = ['BENCH_INGEST_ROOT', 'BENCH_NODE_ARGS', 'BENCH_API_NODE_ARGS', 'BENCH_INGEST_NODE_ARGS']

/**
 * One run of a bench: its env switches, read here so that the command line written beside its figures names every
 * switch that differs from its default (the command that measures them again), and the load sampled while it ran.
 */
export class BenchRun {
  private readonly changed = new Map<string, string>()
  private readonly loads: number[] = [loadavg()[0]!]

  /** `filter` is what follows `pnpm bench` to run this bench alone. */
  constructor(private readonly filter: string) {
    const matches = benchFiles([filter])
    if (matches.length !== 1) throw new Error(`\`pnpm bench ${filter}\` runs ${matches.length} benches (${matches.join(', ')}), not one`)
    for (const name of HELPER_SWITCHES) this.text(name)
    setInterval(() => this.loads.push(loadavg()[0]!), LOAD_SAMPLE_MS).unref()
  }

  number(name: string, fallback: number): number {
    const raw = process.env[name]
    if (raw === undefined || raw === '' || Number(raw) === fallback) return fallback
    this.changed.set(name, raw)
    return Number(raw)
  }

  text(name: string, fallback = ''): string {
    const raw = process.env[name]
    if (raw === undefined || raw === '' || raw === fallback) return fallback
    this.changed.set(name, raw)
    return raw
  }

  flag(name: string): boolean {
    return this.text(name) !== ''
  }

  /** E.g. `BENCH_REPEATS=1 BENCH_ONLY='2 KB × 1 conn' pnpm bench smtp`. */
  get command(): string {
    const quote = (value: string) => (/^[\w./,:=-]+$/.test(value) ? value : `'${value.replaceAll("'", "'\\''")}'`)
    return [...[...this.changed].map(([name, value]) => `${name}=${quote(value)}`), `pnpm bench ${this.filter}`].join(' ')
  }

  /** The 1-min load averages sampled from the start until now. */
  load(): string {
    this.loads.push(loadavg()[0]!)
    const sorted = [...this.loads].sort((a, b) => a - b)
    return `1-min load average ${sorted[0]!.toFixed(1)}–${sorted.at(-1)!.toFixed(1)} during the run (median ${sorted[sorted.length >> 1]!.toFixed(1)} of ${sorted.length} samples, every ${LOAD_SAMPLE_MS / 1000} s)`
  }

  /** The line a section opens with: machine, measured load, and the command that repeats the run. */
  measured(): string {
    return `Measured ${machineLine(this.load())}. Command: \`${this.command}\`.`
  }
}
