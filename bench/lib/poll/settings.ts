/** What a run of the inbox-poll bench measures, from its env switches. */
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { BenchRun } from '../bench-run.js'

export const BENCH_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
export const REPO_ROOT = resolve(BENCH_DIR, '..')
export const DOMAIN = 'bench.tempbox.local'
export const bench = new BenchRun('poll')
export const NO_WRITE = Boolean(process.env.BENCH_NO_WRITE)
export const SECONDS = bench.number('BENCH_SECONDS', 10)
export const REPEATS = bench.number('BENCH_REPEATS', 3)
export const CONNECTIONS = bench.number('BENCH_CONNECTIONS', 1000)
export const RATE = bench.number('BENCH_RATE', 10000)
export const PROCESS_COUNTS = bench.text('BENCH_PROCESSES', '1,2,3').split(',').map(Number)
export const ON_POSTGRES = bench.flag('BENCH_POSTGRES')
export const BASELINE_ROOT = bench.text('BENCH_BASELINE_ROOT') || undefined
export const NODE_COUNTS = ON_POSTGRES ? bench.text('BENCH_NODES', '1,2').split(',').map(Number) : []
export const PACED_SCRIPT = join(BENCH_DIR, 'wrk/paced.lua')
export const RATIO_SECONDS = bench.number('BENCH_RATIO_SECONDS', 5)
export const RATIO_ROUNDS = bench.number('BENCH_RATIO_ROUNDS', 4)
export const RATIO_CONNECTIONS = bench.number('BENCH_RATIO_CONNECTIONS', 100)
export const RATIO_ONLY = bench.flag('BENCH_RATIO_ONLY')
