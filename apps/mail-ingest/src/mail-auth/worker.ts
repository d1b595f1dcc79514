/**
 * Worker thread that checks who really sent each committed message (SPF, DKIM, DMARC, ARC). It runs after the 250 and
 * on its own thread, so neither DNS waits nor DKIM's hashing delay any acknowledgement. Jobs arrive on a port, a
 * commit's worth at a time, from the thread that commits messages (the store worker, or the SMTP thread when it stores
 * in process), and the verdicts go back to that thread, which stores them on its own connection.
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads'
import { openStorage, type StorageConfig } from '@tempbox/db/storage'
import { signalReady, asBuffer } from '../worker-rpc.js'
import { checkMessage } from './check.js'
import { createCachingResolver, readFixtureResolver } from './dns.js'
import { createAuthQueue, type AuthJob } from './queue.js'
import { createVerdictWriter } from './verdict-writer.js'
import type { MailAuthConfig } from './config.js'
import { STOPPED, type AuthWorkerCommand, type VerdictBatch } from './protocol.js'
import { memoizeUnsigned } from './unsigned-memo.js'
import { startWalCheckpointer } from '../wal-checkpointer.js'

/** Unsigned senders whose verdict is kept for reuse. */
const MAX_REMEMBERED_SENDERS = 1_000

const { database, config, mta, jobPort, checkpoint } = workerData as {
  database: StorageConfig
  config: MailAuthConfig
  mta: string
  jobPort: MessagePort
  /** The store worker's commit notices: this thread also keeps the WAL short (one isolate less, issue 29). */
  checkpoint: { storePort: MessagePort; bytes: number } | null
}

// Verdicts are stored by the thread that commits messages, between its batches: written here, on a second SQLite
// connection, each verdict batch took the write lock from the store worker (which then slept in SQLite's busy handler)
// and made it drop its page cache; at 100 KB × 16 that cost the store worker 0.3–0.5 ms of CPU per message.
// Only what is left when ingest stops is written here (the committing thread may be gone by then). Verdicts need not
// survive a power loss (a lost one reads "checking" until the next start marks it unknown), so those commits skip the fsync.
// A checkpoint on this connection still syncs the WAL and the file (synchronous=NORMAL does so at checkpoints).
const storage = openStorage({ ...database, durable: false })
if (checkpoint) startWalCheckpointer(storage, checkpoint.storePort, checkpoint.bytes)
let stopping = false
const writer = createVerdictWriter(async (verdicts, at) => {
  if (stopping) await storage.writeVerdicts(verdicts, at)
  else jobPort.postMessage({ verdicts, at } satisfies VerdictBatch)
})

const resolver = config.dnsFixturePath
  ? readFixtureResolver(config.dnsFixturePath)
  : createCachingResolver({ timeoutMs: config.dnsTimeoutMs, maxEntries: config.dnsCacheEntries, ttlMs: config.dnsCacheTtlMs })
// A verdict is reused no longer than the DNS answers it rests on are cached.
const check = memoizeUnsigned((raw, envelope) => checkMessage(raw, envelope, { resolver, mta, maxHeaderBytes: config.maxHeaderBytes }), {
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

jobPort.on('message', (jobs: AuthJob[]) => jobs.forEach((job) => queue.push(job)))
parentPort!.on('message', (command: AuthWorkerCommand) => {
  if (command.type !== 'stop') return
  stopping = true
  jobPort.close()
  queue.abandon()
  void writer.flush().then(() => parentPort!.postMessage(STOPPED))
})
signalReady()
