/**
 * Worker thread that owns the write connection: SQLite's commit (an fsync with synchronous=FULL) blocks
 * the thread that runs it, so it must not be the thread serving SMTP sessions. Parsed messages arrive from
 * the parse workers' channels; the acknowledgement goes to the SMTP thread once committed. After the commits, between
 * them, this thread also checks senders and keeps the WAL short: on a thread of their own, that work cost an isolate,
 * ~22 MB more V8 heap at peak (issue 29). The search index is filled by a thread of its own (search-index-worker.ts).
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads'
import { openStorage, refusalKindOf, type StorageConfig, type WriterLimits } from '@tempbox/db/storage'
import type { PipelineReply, StoreRequest } from './pipeline-messages.js'
import { createMessageStore, walBytesOf } from './store-message.js'
import { asBuffer, signalReady } from './worker-rpc.js'
import { sendAuthJobs } from './mail-auth/job.js'
import type { MailAuthConfig } from './mail-auth/config.js'
import { STOPPED, type AuthWorkerCommand } from './mail-auth/protocol.js'
import type { AuthJob } from './mail-auth/queue.js'
import { createSenderCheck } from './mail-auth/sender-check.js'
import { createWalCheckpointer } from './wal-checkpointer.js'

/** 16 times SQLite's default WAL size. */
const SAFETY_CHECKPOINT_BYTES = 64 * 1024 * 1024

const { database, maxBatchMessages, limits, parserPorts, checkpointBytes, senderCheck } = workerData as {
  database: StorageConfig
  maxBatchMessages: number
  limits: WriterLimits
  parserPorts: MessagePort[]
  checkpointBytes: number
  /** Null when the check is off. */
  senderCheck: { config: MailAuthConfig; mta: string } | null
}
const storage = openStorage(database)
// On the writer's own connection, between its commits (this thread runs both): never inside, nor slowing, a commit.
const checkpointer = createWalCheckpointer(storage, checkpointBytes)
// Verdicts are stored on the write connection between message batches (SQLite's writes are synchronous here).
const check = senderCheck && createSenderCheck(senderCheck.config, senderCheck.mta, (verdicts, at) => storage.writeVerdicts(verdicts, at))
let stopping = false
const toCheck = {
  postMessage: (jobs: AuthJob[]) => {
    if (!stopping) for (const job of jobs) check!.push(job)
  },
}
// The checkpoint keeps the WAL short; this only steps in should it ever fall far behind.
const store = createMessageStore(storage.messageWriter(limits, { autocheckpointBytes: SAFETY_CHECKPOINT_BYTES }), {
  maxBatchMessages,
  onCommitted: (messages, contentIds) => {
    checkpointer.committed(messages.reduce((sum, m) => sum + walBytesOf(m), 0))
    // Queued for a few milliseconds, so the checks run after this commit's acknowledgements are sent.
    if (check) sendAuthJobs(toCheck, messages, contentIds)
  },
})

// The answers of one commit go to the SMTP thread in one message: they settle together (one microtask after another),
// and the flush queued behind the first of them runs after the last.
let replies: PipelineReply[] = []
const reply = (message: PipelineReply) => {
  if (replies.length === 0) queueMicrotask(sendReplies)
  replies.push(message)
}
function sendReplies() {
  parentPort!.postMessage(replies)
  replies = []
}
for (const port of parserPorts) {
  port.on('message', ({ id, message }: StoreRequest) => {
    const { text, attachments } = message.parsed
    const parsed = {
      ...message.parsed,
      text: text instanceof Uint8Array ? asBuffer(text) : text,
      attachments: attachments.map((a) => ({ ...a, content: asBuffer(a.content) })),
    }
    store.store({ ...message, source: { ...message.source, raw: asBuffer(message.source.raw) }, parsed }).then(
      () => reply({ id, ok: true }),
      (error: unknown) => reply({ id, ok: false, error: error instanceof Error ? error.message : String(error), refusal: refusalKindOf(error) }),
    )
  })
}
// Stopping: what is not checked yet is stored as unknown, then the SMTP thread hears STOPPED.
parentPort!.on('message', (command: AuthWorkerCommand) => {
  if (command.type !== 'stop') return
  stopping = true
  void (check?.abandon() ?? Promise.resolve()).then(() => parentPort!.postMessage(STOPPED))
})
signalReady()
