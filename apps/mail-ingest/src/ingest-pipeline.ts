import type { Db } from '@tempbox/db'
import type { Config } from './config.js'
import { parseMessage, type ParsedMessage } from './parse-message.js'
import { createMessageStore, createMessageWriter, type IncomingMessage, type SqliteHandle } from './store-message.js'
import { asBuffer, startWorker, type WorkerClient } from './worker-rpc.js'

/** Turns received bytes into stored rows: parse, then commit. Resolves only once committed. */
export interface IngestPipeline {
  /** Settles once the worker threads are up, so the first message does not wait for them. */
  ready: Promise<void>
  accept: (raw: Buffer, inboxIds: number[], receivedAt: number) => Promise<void>
  close: () => Promise<void>
}

/**
 * The SMTP thread only speaks the protocol: parsing runs in worker threads and the writes (and their fsync)
 * in one store worker with its own connection, so the three overlap on a multi-core machine and group
 * commit gets real batches. A ':memory:' database cannot be shared between threads, so it is written in-process.
 */
export function createIngestPipeline(db: Db, sqlite: SqliteHandle, config: Config): IngestPipeline {
  if (config.databasePath === ':memory:' || config.parseWorkers === 0) return createInProcessPipeline(db, sqlite, config)
  const parsers: Array<{ client: WorkerClient<Uint8Array, ParsedMessage>; load: number }> = Array.from(
    { length: config.parseWorkers },
    () => ({ client: startWorker<Uint8Array, ParsedMessage>(new URL('./parse-worker.ts', import.meta.url), null), load: 0 }),
  )
  const writer = startWorker<IncomingMessage, void>(
    new URL('./store-worker.ts', import.meta.url),
    { databasePath: config.databasePath, maxBatchMessages: config.maxBatchMessages },
    // Without its writer the process could only answer 451 forever: exit and let the supervisor restart it.
    (error) => {
      console.error('[smtp] the store worker stopped, exiting:', error.message)
      process.exit(1)
    },
  )
  const parse = async (raw: Buffer): Promise<ParsedMessage> => {
    const parser = parsers.reduce((best, p) => (p.load < best.load ? p : best))
    parser.load++
    try {
      return await parser.client.call(raw)
    } catch {
      // A parser thread that died must not cost the message: parse here instead.
      return parseMessage(raw)
    } finally {
      parser.load--
    }
  }
  return {
    ready: Promise.all([...parsers.map((p) => p.client.ready), writer.ready]).then(() => {}),
    accept: async (raw, inboxIds, receivedAt) => {
      const parsed = await parse(raw)
      await writer.call({ inboxIds, raw, receivedAt, parsed: { ...parsed, attachments: parsed.attachments.map((a) => ({ ...a, content: asBuffer(a.content) })) } })
    },
    close: async () => {
      await Promise.all([...parsers.map((p) => p.client.close()), writer.close()])
    },
  }
}

function createInProcessPipeline(db: Db, sqlite: SqliteHandle, config: Config): IngestPipeline {
  const store = createMessageStore(createMessageWriter(db, sqlite), { maxBatchMessages: config.maxBatchMessages })
  return {
    ready: Promise.resolve(),
    accept: async (raw, inboxIds, receivedAt) => {
      await store.store({ inboxIds, raw, receivedAt, parsed: await parseMessage(raw) })
    },
    close: () => store.drain(),
  }
}
