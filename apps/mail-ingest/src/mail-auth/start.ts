import { MessageChannel, type MessagePort, type Worker } from 'node:worker_threads'
import { storageConfig, type Config } from '../config.js'
import { startWorker } from '../worker-rpc.js'
import type { Storage } from '@tempbox/db'
import { STOPPED, type AuthWorkerCommand } from './protocol.js'

/** How long a stopping ingest waits for the thread running the sender check to mark what it held as unknown. */
const STOP_WAIT_MS = 2_000

export interface AuthChecker {
  /** Where the one thread that commits messages sends them to be checked (sendAuthJobs). */
  jobs: Pick<MessagePort, 'postMessage'>
  /** Where their verdicts come back, for that thread to store (store-verdicts.ts). */
  verdicts: MessagePort
  /** See settleLeftoverChecks. */
  ready: Promise<void>
  /**
   * What was not checked is stored as unknown, by the worker itself. Call it before the committing thread stops, so that
   * verdicts already sent there are stored (one sent in the last moment may be lost: it reads "checking" until the next
   * start marks it unknown).
   */
  stop: () => Promise<void>
}

/**
 * Settles once the rows a stopped run left `checking` are marked unknown: nobody will check them now. Ingest listens
 * only after it (run on the checking thread, the settle raced the first mail of the run and marked it unknown).
 */
export async function settleLeftoverChecks(storage: Pick<Storage, 'settleLeftoverChecks'>): Promise<void> {
  const settled = await storage.settleLeftoverChecks(Date.now())
  if (settled > 0) console.log(`[mail-auth] ${settled} messages left unchecked by the last run marked unknown`)
}

/**
 * The stop handshake with the thread running the sender check: `onMessage` takes its STOPPED; `stop` asks it to store
 * what it has not checked as unknown and settles once it has, or after STOP_WAIT_MS.
 */
export function senderCheckStopper() {
  let stopped: () => void = () => {}
  return {
    /** True when `message` was the thread's STOPPED. */
    onMessage: (message: unknown): boolean => {
      if (message !== STOPPED) return false
      stopped()
      return true
    },
    stop: (worker: Worker) =>
      new Promise<void>((resolve) => {
        stopped = resolve
        setTimeout(resolve, STOP_WAIT_MS).unref()
        worker.postMessage({ type: 'stop' } satisfies AuthWorkerCommand)
      }),
  }
}

/**
 * The sender check for messages stored on the SMTP thread, or null when MAIL_AUTH=off. Its worker starts with the first
 * message to check: loading mailauth and its DNS, BIMI and charset code costs a thread ~0.5 CPU-s, which an ingest that
 * gets no mail (or none yet) need not pay at start.
 */
export function startAuthChecker(config: Config, storage: Pick<Storage, 'settleLeftoverChecks'>, onCrash: (error: Error) => void): AuthChecker | null {
  if (!config.mailAuth.enabled) return null
  const ready = settleLeftoverChecks(storage)
  const channel = new MessageChannel()
  const stopper = senderCheckStopper()
  let worker: ReturnType<typeof startWorker> | null = null
  let stopped = false
  const start = () =>
    startWorker(new URL('./worker.ts', import.meta.url), {
      workerData: { database: storageConfig(config, { poolSize: 2 }), config: config.mailAuth, mta: config.mailDomains[0], jobPort: channel.port2 },
      transferList: [channel.port2],
      youngGenerationMb: config.checkWorkerYoungGenerationMb,
      oldGenerationMb: config.workerOldGenerationMb,
      onMessage: stopper.onMessage,
      onCrash,
    })
  return {
    jobs: {
      postMessage: (jobs, transfer) => {
        // Jobs batched before a stop may still be posted during it: as before, they are not checked (read unknown later).
        if (stopped) return
        worker ??= start()
        channel.port1.postMessage(jobs, transfer)
      },
    },
    verdicts: channel.port1,
    ready,
    stop: async () => {
      stopped = true
      if (worker) await stopper.stop(worker.worker)
      channel.port1.close()
      await worker?.stop()
    },
  }
}
