/**
 * Worker thread that owns the write connection: SQLite's commit (an fsync with synchronous=FULL) blocks
 * the thread that runs it, so it must not be the thread serving SMTP sessions.
 */
import { workerData } from 'node:worker_threads'
import { createDb } from '@tempbox/db'
import { createMessageStore, createMessageWriter, type IncomingMessage } from './store-message.js'
import { asBuffer, serveRequests } from './worker-rpc.js'

const { databasePath, maxBatchMessages } = workerData as { databasePath: string; maxBatchMessages: number }
const { db, sqlite } = createDb({ path: databasePath })
const store = createMessageStore(createMessageWriter(db, sqlite), { maxBatchMessages })

serveRequests<IncomingMessage, void>((message) =>
  store.store({
    ...message,
    raw: asBuffer(message.raw),
    parsed: { ...message.parsed, attachments: message.parsed.attachments.map((a) => ({ ...a, content: asBuffer(a.content) })) },
  }),
)
