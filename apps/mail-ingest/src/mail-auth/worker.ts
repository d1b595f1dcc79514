/**
 * Worker thread that checks who really sent each committed message (SPF, DKIM, DMARC, ARC) and stores the verdict.
 * It runs after the 250 and on its own thread, so neither DNS waits nor DKIM's hashing delay any acknowledgement.
 * Jobs arrive on ports, a commit's worth at a time (from the store worker, or from the SMTP thread when it stores in
 * process).
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads'
import { openStorage, type StorageConfig } from '@tempbox/db'
import { signalReady, asBuffer } from '../worker-rpc.js'
import { checkMessage } from './check.js'
import { createCachingResolver, readFixtureResolver } from './dns.js'
import { createAuthQueue, type AuthJob } from './queue.js'
import { createVerdictWriter } from './verdict-writer.js'
import type { MailAuthConfig } from './config.js'
import { STOPPED, type AuthWorkerCommand } from './protocol.js'
import { memoizeUnsigned } from './unsigned-memo.js'

/** Unsigned senders whose verdict is kept for reuse. */
const MAX_REMEMBERED_SENDERS = 1_000

const { database, config, mta, jobPorts } = workerData as { database: StorageConfig; config: MailAuthConfig; mta: string; jobPorts: MessagePort[] }

// Verdicts need not survive a power loss (a lost one reads "checking" until the next start marks it unknown), so this
// connection's commits skip the fsync: in WAL mode the store worker's next commit syncs them anyway, and a verdict
// batch no longer holds the write lock, which the store worker waits on, for an fsync of its own.
const storage = openStorage({ ...database, durable: false })
const writer = createVerdictWriter((batch, at) => storage.writeVerdicts(batch, at))

const resolver = config.dnsFixturePath
  ? readFixtureResolver(config.dnsFixturePath)
  : createCachingResolver({ timeoutMs: config.dnsTimeoutMs, maxEntries: config.dnsCacheEntries, ttlMs: config.dnsCacheTtlMs })
// A verdict is reused no longer than the DNS answers it rests on are cached.
const check = memoizeUnsigned((raw, envelope) => checkMessage(raw, envelope, { resolver, mta }), {
  maxEntries: Math.min(config.dnsCacheEntries, MAX_REMEMBERED_SENDERS),
  ttlMs: config.dnsCacheTtlMs,
})
const queue = createAuthQueue({
  check: (job) => check(asBuffer(job.raw), job.envelope),
  concurrency: config.concurrency,
  maxQueued: config.maxQueued,
  maxQueuedBytes: config.maxQueuedBytes,
  timeoutMs: config.timeoutMs,
  onVerdict: writer.write,
})

for (const port of jobPorts) port.on('message', (jobs: AuthJob[]) => jobs.forEach((job) => queue.push(job)))
parentPort!.on('message', (command: AuthWorkerCommand) => {
  if (command.type !== 'stop') return
  for (const port of jobPorts) port.close()
  queue.abandon()
  void writer.flush().then(() => parentPort!.postMessage(STOPPED))
})
signalReady()
