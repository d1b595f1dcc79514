/** What a run of the inbox-poll bench measures, from its env switches. */
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

export const BENCH_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
export const REPO_ROOT = resolve(BENCH_DIR, '..')
export const DOMAIN = 'bench.tempbox.local'
export const SECONDS = Number(process.env.BENCH_SECONDS ?? '10')
export const REPEATS = Number(process.env.BENCH_REPEATS ?? '3')
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? '1000')
export const RATE = Number(process.env.BENCH_RATE ?? '10000')
export const PROCESS_COUNTS = (process.env.BENCH_PROCESSES ?? '1,2,3').split(',').map(Number)
export const ON_POSTGRES = Boolean(process.env.BENCH_POSTGRES)
export const BASELINE_ROOT = process.env.BENCH_BASELINE_ROOT
export const NODE_COUNTS = ON_POSTGRES ? (process.env.BENCH_NODES ?? '1,2').split(',').map(Number) : []
export const PACED_SCRIPT = join(BENCH_DIR, 'wrk/paced.lua')
export const RATIO_SECONDS = Number(process.env.BENCH_RATIO_SECONDS ?? '5')
export const RATIO_ROUNDS = Number(process.env.BENCH_RATIO_ROUNDS ?? '4')
export const RATIO_CONNECTIONS = Number(process.env.BENCH_RATIO_CONNECTIONS ?? '100')
