/**
 * What the state several API nodes share costs on PostgreSQL (apps/api/src/service-state/postgres-state.ts), per operation:
 * a rate-limit hit (one upsert), a guess miss (the same upsert), an address reservation (a transaction: lock the
 * client's row, count and insert), against the in-memory versions one process uses. One and 16 operations in flight,
 * rounds interleaved; latency p50/p99 and this process's CPU per operation (PostgreSQL's own CPU is not in it).
 * Starts a throwaway PostgreSQL (fsync on, as production). `pnpm bench shared-state`.
 */
import { cpus, loadavg } from 'node:os'
import { createPostgresDb, migrateToLatest } from '@tempbox/db'
import { createTestDatabase, startPostgres } from '../packages/db/src/testing/postgres.ts'
import { AddressLimiter } from '../apps/api/src/service-state/in-process-address-limits.ts'
import { MissCounter } from '../apps/api/src/service-state/in-process-miss-limits.ts'
import { PostgresAddressLimits } from '../apps/api/src/service-state/postgres-address-limits.ts'
import { PostgresMissLimits } from '../apps/api/src/service-state/postgres-miss-limits.ts'
import { deriveKey } from '../apps/api/src/service-state/client-keys.ts'
import { fmt, median } from './lib/stats.ts'

const OPS_PER_ROUND = 2_000
const ROUNDS = 3
const server = await startPostgres()
const db = createPostgresDb({ url: await createTestDatabase(server.url, 'bench'), poolSize: 16 })
await migrateToLatest(db)
const key = deriveKey('bench-secret-of-at-least-32-characters', 'client-key')

let n = 0
/** A fresh client each time, so no limit is reached and every call does the full work. */
const ip = () => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n++ & 255}`
const HOUR = 3_600_000
const pgMisses = new PostgresMissLimits(db, key, 1_000_000)
const pgAddresses = new PostgresAddressLimits(db, key, 5, 100)
const memMisses = new MissCounter(1_000_000)
const memAddresses = new AddressLimiter(5, 100)

type Op = () => unknown
const cases: Record<string, Op> = {
  'PostgreSQL miss/rate-limit hit (upsert)': () => pgMisses.miss('inbox', ip(), Date.now()),
  'PostgreSQL address reservation (transaction)': () => pgAddresses.reserve(ip(), `a${n}@bench.test`, Date.now() + HOUR, Date.now()),
  'memory miss (MissCounter)': () => memMisses.miss('inbox', ip(), Date.now()),
  'memory address reservation (AddressLimiter)': () => memAddresses.reserve(ip(), `a${n}@bench.test`, Date.now() + HOUR, Date.now()),
}

async function run(op: Op, inFlight: number): Promise<{ perSecond: number; cpuUs: number; p50: number; p99: number }> {
  const latencies: number[] = []
  let started = 0
  const cpu = process.cpuUsage()
  const t0 = performance.now()
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (started < OPS_PER_ROUND) {
        started++
        const t = performance.now()
        await op()
        latencies.push(performance.now() - t)
      }
    }),
  )
  const seconds = (performance.now() - t0) / 1000
  const used = process.cpuUsage(cpu)
  latencies.sort((a, b) => a - b)
  return {
    perSecond: OPS_PER_ROUND / seconds,
    cpuUs: (used.user + used.system) / OPS_PER_ROUND,
    p50: latencies[Math.floor(latencies.length * 0.5)]!,
    p99: latencies[Math.floor(latencies.length * 0.99)]!,
  }
}

const results = new Map<string, { perSecond: number[]; cpuUs: number[]; p50: number[]; p99: number[] }>()
for (let round = 0; round < ROUNDS; round++) {
  for (const inFlight of [1, 16]) {
    for (const [name, op] of Object.entries(cases)) {
      const r = await run(op, inFlight)
      const key = `${name} × ${inFlight}`
      const acc = results.get(key) ?? { perSecond: [], cpuUs: [], p50: [], p99: [] }
      acc.perSecond.push(r.perSecond)
      acc.cpuUs.push(r.cpuUs)
      acc.p50.push(r.p50)
      acc.p99.push(r.p99)
      results.set(key, acc)
    }
  }
}
console.log(`shared state per operation, ${ROUNDS} interleaved rounds of ${OPS_PER_ROUND} (median of rounds); ${cpus().length} cores, load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`)
console.log('| operation × in flight | ops/s | CPU µs/op (this process) | p50 ms | p99 ms |')
console.log('|---|---|---|---|---|')
for (const [name, r] of results) {
  console.log(`| ${name} | ${fmt(median(r.perSecond), 0)} | ${fmt(median(r.cpuUs), 1)} | ${fmt(median(r.p50), 3)} | ${fmt(median(r.p99), 3)} |`)
}
await db.destroy()
await server.stop()
