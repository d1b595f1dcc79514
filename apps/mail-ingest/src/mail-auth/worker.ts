/**
 * Worker thread that checks who really sent each committed message (SPF, DKIM, DMARC, ARC) when messages are stored on
 * the SMTP thread (SMTP_PARSE_WORKERS=0; otherwise the store worker checks what it commits). It runs after the 250 and
 * on its own thread, so neither DNS waits nor DKIM's hashing delay any acknowledgement. Jobs arrive on a port, a
 * commit's worth at a time, and the verdicts go back to the committing thread, which stores them on its own connection.
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads'
import { openStorage, type StorageConfig } from '@tempbox/db/storage'
import { signalReady } from '../worker-rpc.js'
import type { AuthJob } from './queue.js'
import type { MailAuthConfig } from './config.js'
import { STOPPED, type AuthWorkerCommand, type VerdictBatch } from './protocol.js'
import { createSenderCheck } from './sender-check.js'

const { database, config, mta, jobPort } = workerData as {
  database: StorageConfig
  config: MailAuthConfig
  mta: string
  jobPort: MessagePort
}

// Verdicts are stored by the thread that commits messages, between its batches: written here, on a second SQLite
// connection, each verdict batch took the write lock from the committing thread (which then slept in SQLite's busy
// handler). Only what is left when ingest stops is written here (the committing thread may be gone by then). Verdicts
// need not survive a power loss (a lost one reads "checking" until the next start marks it unknown): no fsync.
const storage = openStorage({ ...database, durable: false })
let stopping = false
const check = createSenderCheck(config, mta, async (verdicts, at) => {
  if (stopping) await storage.writeVerdicts(verdicts, at)
  else jobPort.postMessage({ verdicts, at } satisfies VerdictBatch)
})

jobPort.on('message', (jobs: AuthJob[]) => jobs.forEach(check.push))
parentPort!.on('message', (command: AuthWorkerCommand) => {
  if (command.type !== 'stop') return
  stopping = true
  jobPort.close()
  void check.abandon().then(() => parentPort!.postMessage(STOPPED))
})
signalReady()
