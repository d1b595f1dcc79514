import { MessageChannel } from 'node:worker_threads'
import { StoreRefusal, type AcceptedDelivery, type RefusalKind, type Storage } from '@tempbox/db'
import { storageConfig, type Config } from './config.js'
import type { SmtpEnvelope } from './mail-auth/check.js'
import { senderCheckStopper, settleLeftoverChecks } from './mail-auth/start.js'
import type { ParseRequest, ParserPortMessage, PipelineReply } from './pipeline-messages.js'
import { movableMemory, prepareWorker, startWorker } from './worker-rpc.js'
import { writerLimits } from './writer-limits.js'
import { parsesOnStore } from './parse-route.js'
import { parseWorkers } from './parse-workers.js'

/** About SQLite's default autocheckpoint size (1,000 pages of 4 KB): keeps the WAL, and so reads, short. */
const CHECKPOINT_BYTES = 4 * 1024 * 1024

/** Turns received bytes into stored rows: parse, then commit. Resolves only once committed. */
export interface IngestPipeline {
  /** Settles once the worker threads are up, so the first message does not wait for them. */
  ready: Promise<void>
  /**
   * Takes `raw` over: its memory may move to a worker thread, so the caller must not read it afterwards. The envelope
   * is for the sender check, which runs after the commit (and so never delays this promise). `deliveries`, per inbox:
   * the +tag and the delivery log's reason, written in the message's commit.
   */
  accept: (raw: Buffer, inboxIds: number[], receivedAt: number, envelope: SmtpEnvelope, deliveries?: AcceptedDelivery[]) => Promise<void>
  /** Messages accepted and not yet committed (or failed). */
  pending: () => number
  close: () => Promise<void>
}

/**
 * The SMTP thread only speaks the protocol: raw bytes go to the store worker (own connection, group commit, the fsync
 * off the SMTP thread), which parses a small text itself and sends the acknowledgement back once committed. Other
 * mail goes to a parse worker first, which hands the parsed message straight to the store worker: its parsing then
 * overlaps the commits. The SMTP thread copies each message once.
 */
export function createIngestPipeline(storage: Storage, config: Config): IngestPipeline {
  if (config.parseWorkers === 0) return loadInProcessPipeline(storage, config)
  const pending = new Map<number, { resolve: () => void; reject: (error: Error) => void; parser: number }>()
  const limits = writerLimits(config)
  let nextId = 0
  // The store worker answers a commit's messages together; a parse worker that failed answers alone.
  const onReply = (message: unknown) => {
    if (Array.isArray(message)) for (const reply of message as PipelineReply[]) settle(reply)
    else settle(message as PipelineReply)
  }
  const settle = (reply: PipelineReply) => {
    const { id, ...result } = reply
    const waiter = pending.get(id)
    if (!waiter) return
    pending.delete(id)
    if (waiter.parser >= 0) parsers.settled(waiter.parser)
    if (result.ok) waiter.resolve()
    else {
      const { error, refusal } = result as { error: string; refusal?: RefusalKind | null }
      waiter.reject(refusal ? new StoreRefusal(refusal, error) : new Error(error))
    }
  }
  // A worker that dies takes the messages it held with it, and they can no longer be acknowledged:
  // exit and let the supervisor restart us (clients without a 250 retry, as SMTP intends).
  const onCrash = (error: Error) => {
    console.error('[smtp] a worker thread stopped, exiting:', error.message)
    process.exit(1)
  }
  const checking = config.mailAuth.enabled
  const stopper = senderCheckStopper()
  // The store worker also checks senders and keeps the WAL short (see store-worker.ts).
  const writer = startWorker(new URL('./store-worker.ts', import.meta.url), {
    workerData: {
      database: storageConfig(config, { poolSize: 2 }),
      maxBatchMessages: config.maxBatchMessages,
      limits,
      checkpointBytes: CHECKPOINT_BYTES,
      searchTextChars: config.searchTextMaxChars,
      senderCheck: checking ? { config: config.mailAuth, mta: config.mailDomains[0] } : null,
    },
    youngGenerationMb: config.workerYoungGenerationMb,
    oldGenerationMb: config.workerOldGenerationMb,
    onMessage: (message) => {
      if (!stopper.onMessage(message)) onReply(message)
    },
    onCrash,
  })
  // SQLite's search index (a file beside the database) is filled on a thread of its own; PostgreSQL keeps its index itself.
  const indexer = storage.indexesSearchApart
    ? startWorker(new URL('./search-index-worker.ts', import.meta.url), {
        workerData: { databasePath: config.databasePath },
        youngGenerationMb: config.workerYoungGenerationMb,
        oldGenerationMb: config.workerOldGenerationMb,
        onMessage: () => {},
        onCrash,
      })
    : null
  // Started by the first message that needs one, stopped once idle (parse-workers.ts). Beside a store worker parsing
  // 2 KB texts, an idle parse worker still cost 13 % of the msg/s and ~45 MB (8 of 8 pairs).
  const parserUrl = new URL('./parse-worker.ts', import.meta.url)
  prepareWorker(parserUrl)
  const parsers = parseWorkers(config.parseWorkers, () => {
    const channel = new MessageChannel()
    // What the parser posts before the store worker listens on its end waits in the channel.
    writer.worker.postMessage({ type: 'parser-port', port: channel.port2 } satisfies ParserPortMessage, [channel.port2])
    return startWorker(parserUrl, {
      workerData: { storePort: channel.port1, searchTextChars: config.searchTextMaxChars },
      transferList: [channel.port1],
      youngGenerationMb: config.workerYoungGenerationMb,
      oldGenerationMb: config.workerOldGenerationMb,
      onMessage: onReply,
      onCrash,
    })
  })
  return {
    ready: Promise.all([writer.ready, indexer?.ready, checking ? settleLeftoverChecks(storage) : null]).then(() => {}),
    pending: () => pending.size,
    accept: (raw, inboxIds, receivedAt, envelope, deliveries) =>
      new Promise<void>((resolve, reject) => {
        const id = nextId++
        // A small text is parsed where it is stored (its hand-over to a parse worker would cost more than parsing it),
        // unless other mail keeps a parse worker wanted: then the store worker only stores, as it should in a mix.
        const small = parsesOnStore(raw, config.parseOnStoreMaxBytes)
        const parser = small && !parsers.wanted() ? null : parsers.take(!small)
        pending.set(id, { resolve, reject, parser: parser?.index ?? -1 })
        // A buffer that owns all of its memory (Buffer.concat of a multi-chunk message) moves to the worker
        // instead of being copied; the caller never reads it again.
        const request: ParseRequest = { id, raw, inboxIds, receivedAt, ...(checking ? { envelope } : {}), ...(deliveries ? { deliveries } : {}) }
        ;(parser?.worker ?? writer.worker).postMessage(request, movableMemory([raw]))
      }),
    close: async () => {
      // First the store worker stores what the sender check has not checked yet (as unknown).
      if (checking) await stopper.stop(writer.worker)
      // All marked as stopping at once: a worker whose peers are gone has nothing left to wait for and exits by
      // itself, which would otherwise count as a crash.
      await Promise.all([parsers.stop(), writer.stop(), indexer?.stop()])
    },
  }
}

/**
 * SMTP_PARSE_WORKERS=0: parsing and storing on this thread, loaded only then: mailparser and @tempbox/mail-derive would
 * otherwise sit in the SMTP thread's heap while the workers do that work (issue 29).
 */
function loadInProcessPipeline(storage: Storage, config: Config): IngestPipeline {
  let pipeline: IngestPipeline | null = null
  const loading = import('./in-process-pipeline.js').then(({ createInProcessPipeline }) => (pipeline = createInProcessPipeline(storage, config)))
  return {
    ready: loading.then((p) => p.ready),
    pending: () => pipeline?.pending() ?? 0,
    accept: async (...args) => (await loading).accept(...args),
    close: async () => (await loading).close(),
  }
}
