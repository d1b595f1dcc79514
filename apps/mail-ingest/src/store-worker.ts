/**
 * Worker thread that owns the write connection: SQLite's commit (an fsync with synchronous=FULL) blocks
 * the thread that runs it, so it must not be the thread serving SMTP sessions. Parsed messages arrive from
 * the parse workers' channels; the acknowledgement goes to the SMTP thread once committed.
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads'
import { openStorage, refusalKindOf, type StorageConfig, type WriterLimits } from '@tempbox/db/storage'
import type { CommitNotice, PipelineReply, StoreRequest } from './pipeline-messages.js'
import { createMessageStore, walBytesOf } from './store-message.js'
import { asBuffer, signalReady } from './worker-rpc.js'
import { postBatches } from './post-batches.js'
import { sendAuthJobs } from './mail-auth/job.js'
import { storeVerdictsFrom } from './mail-auth/store-verdicts.js'

/** 16 times SQLite's default WAL size. */
const SAFETY_CHECKPOINT_BYTES = 64 * 1024 * 1024
/** Far below the checkpointer's 4 MB and its 200 ms quiet spell. */
const CHECKPOINT_NOTICE_EVERY_MS = 20

const { database, maxBatchMessages, limits, parserPorts, checkpointPort, authPort } = workerData as {
  database: StorageConfig
  maxBatchMessages: number
  limits: WriterLimits
  parserPorts: MessagePort[]
  checkpointPort: MessagePort
  /** To the sender-check worker, and its verdicts back; null when the check is off. */
  authPort: MessagePort | null
}
const storage = openStorage(database)
// The checkpointer needs a rough count of bytes, not one message per commit (each post costs this thread a wake-up of it).
const toCheckpointer = postBatches<number>((bytes) => checkpointPort.postMessage({ bytes: bytes.reduce((a, b) => a + b, 0) } satisfies CommitNotice), CHECKPOINT_NOTICE_EVERY_MS)
// The checkpoint worker keeps the WAL short; this only steps in should it ever fall far behind.
const store = createMessageStore(storage.messageWriter(limits, { autocheckpointBytes: SAFETY_CHECKPOINT_BYTES }), {
  maxBatchMessages,
  onCommitted: (messages, contentIds) => {
    toCheckpointer.push(messages.reduce((sum, m) => sum + walBytesOf(m), 0))
    if (authPort) sendAuthJobs(authPort, messages, contentIds)
  },
})
if (authPort) storeVerdictsFrom(authPort, storage)

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
signalReady()
