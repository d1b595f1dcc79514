/**
 * Worker thread that owns the write connection: SQLite's commit (an fsync with synchronous=FULL) blocks
 * the thread that runs it, so it must not be the thread serving SMTP sessions. Small texts arrive raw from the SMTP
 * thread and are parsed here; other mail arrives parsed, over a channel from a parse worker
 * (SMTP_PARSE_ON_STORE_MAX_BYTES). The acknowledgement goes to the SMTP thread once committed. After the commits, between
 * them, this thread also checks senders and keeps the WAL short: on a thread of their own, that work cost an isolate,
 * ~22 MB more V8 heap at peak (issue 29). The search index is filled by a thread of its own (search-index-worker.ts).
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads'
import { openStorage, refusalKindOf, type StorageConfig, type WriterLimits } from '@tempbox/db/storage'
import type { ParseRequest, ParserPortMessage, PipelineReply, StoreRequest } from './pipeline-messages.js'
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

const { database, maxBatchMessages, limits, checkpointBytes, senderCheck, searchTextChars } = workerData as {
  database: StorageConfig
  maxBatchMessages: number
  limits: WriterLimits
  checkpointBytes: number
  /** SEARCH_TEXT_MAX_CHARS, for the messages parsed here. */
  searchTextChars: number
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
/** A parse worker's messages, parsed there: the memory of their bytes moved here with them. */
function listenToParser(port: MessagePort) {
  port.on('message', ({ id, message }: StoreRequest) => {
    const { text, attachments } = message.parsed
    const parsed = {
      ...message.parsed,
      text: text instanceof Uint8Array ? asBuffer(text) : text,
      attachments: attachments.map((a) => ({ ...a, content: asBuffer(a.content) })),
    }
    settle(id, store.store({ ...message, source: { ...message.source, raw: asBuffer(message.source.raw) }, parsed }))
  })
}

function settle(id: number, stored: Promise<void>) {
  stored.then(
    () => reply({ id, ok: true }),
    (error: unknown) => reply({ id, ok: false, error: error instanceof Error ? error.message : String(error), refusal: refusalKindOf(error) }),
  )
}

// Loaded with the first text parsed here: mailparser's modules would otherwise sit in this thread's heap (~10 MB)
// while all mail is parsed on the parse worker.
let parsing: Promise<typeof import('./parse-for-store.js')> | null = null
// From the SMTP thread: a small message to parse and store here, a parse worker's channel, or the command to stop.
parentPort!.on('message', (command: ParseRequest | ParserPortMessage | AuthWorkerCommand) => {
  if ('raw' in command) {
    const { id, raw, ...request } = command
    settle(id, (parsing ??= import('./parse-for-store.js')).then(({ parseForStore }) => parseForStore(asBuffer(raw), request, searchTextChars)).then(store.store))
    return
  }
  if (command.type === 'parser-port') return listenToParser(command.port)
  if (command.type !== 'stop') return
  // Stopping: what is not checked yet is stored as unknown, then the SMTP thread hears STOPPED.
  stopping = true
  void (check?.abandon() ?? Promise.resolve()).then(() => parentPort!.postMessage(STOPPED))
})
signalReady()
