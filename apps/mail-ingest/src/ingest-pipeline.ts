import { MessageChannel } from 'node:worker_threads'
import { StoreRefusal, type AcceptedDelivery, type RefusalKind, type Storage } from '@tempbox/db'
import { storageConfig, type Config } from './config.js'
import type { SmtpEnvelope } from './mail-auth/check.js'
import { senderCheckStopper, settleLeftoverChecks } from './mail-auth/start.js'
import type { ParseRequest, PipelineReply } from './pipeline-messages.js'
import { movableMemory, startWorker } from './worker-rpc.js'
import { writerLimits } from './writer-limits.js'

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
 * The SMTP thread only speaks the protocol: raw bytes go to a parse worker, which hands the parsed message
 * straight to the store worker (own connection, group commit, the fsync off the SMTP thread), which sends
 * the acknowledgement back. The three overlap on a multi-core machine and the SMTP thread copies each
 * message once.
 */
export function createIngestPipeline(storage: Storage, config: Config): IngestPipeline {
  if (config.parseWorkers === 0) return loadInProcessPipeline(storage, config)
  const pending = new Map<number, { resolve: () => void; reject: (error: Error) => void; parser: number }>()
  const limits = writerLimits(config)
  const load: number[] = Array.from({ length: config.parseWorkers }, () => 0)
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
    load[waiter.parser]!--
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
  const channels = load.map(() => new MessageChannel())
  const checking = config.mailAuth.enabled
  const stopper = senderCheckStopper()
  // The store worker also checks senders and keeps the WAL short (see store-worker.ts).
  const writer = startWorker(new URL('./store-worker.ts', import.meta.url), {
    workerData: {
      database: storageConfig(config, { poolSize: 2 }),
      maxBatchMessages: config.maxBatchMessages,
      limits,
      parserPorts: channels.map((c) => c.port2),
      checkpointBytes: CHECKPOINT_BYTES,
      senderCheck: checking ? { config: config.mailAuth, mta: config.mailDomains[0] } : null,
    },
    transferList: channels.map((c) => c.port2),
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
  const parsers = channels.map((channel) =>
    startWorker(new URL('./parse-worker.ts', import.meta.url), {
      workerData: { storePort: channel.port1, searchTextChars: config.searchTextMaxChars },
      transferList: [channel.port1],
      youngGenerationMb: config.workerYoungGenerationMb,
      oldGenerationMb: config.workerOldGenerationMb,
      onMessage: onReply,
      onCrash,
    }),
  )
  return {
    ready: Promise.all([...parsers.map((p) => p.ready), writer.ready, indexer?.ready, checking ? settleLeftoverChecks(storage) : null]).then(() => {}),
    pending: () => pending.size,
    accept: (raw, inboxIds, receivedAt, envelope, deliveries) =>
      new Promise<void>((resolve, reject) => {
        const id = nextId++
        const parser = load.indexOf(Math.min(...load))
        load[parser]!++
        pending.set(id, { resolve, reject, parser })
        // A buffer that owns all of its memory (Buffer.concat of a multi-chunk message) moves to the worker
        // instead of being copied; the caller never reads it again.
        const request: ParseRequest = { id, raw, inboxIds, receivedAt, ...(checking ? { envelope } : {}), ...(deliveries ? { deliveries } : {}) }
        parsers[parser]!.worker.postMessage(request, movableMemory([raw]))
      }),
    close: async () => {
      // First the store worker stores what the sender check has not checked yet (as unknown).
      if (checking) await stopper.stop(writer.worker)
      // All marked as stopping at once: a worker whose peers are gone has nothing left to wait for and exits by
      // itself, which would otherwise count as a crash.
      await Promise.all([...parsers.map((p) => p.stop()), writer.stop(), indexer?.stop()])
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
