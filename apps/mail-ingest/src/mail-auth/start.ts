import { MessageChannel, type MessagePort } from 'node:worker_threads'
import { storageConfig, type Config } from '../config.js'
import { startWorker } from '../worker-rpc.js'
import type { Storage } from '@tempbox/db'
import { STOPPED, type AuthWorkerCommand } from './protocol.js'

/** How long a stopping ingest waits for the auth worker to mark what it held as unknown. */
const STOP_WAIT_MS = 2_000

export interface AuthChecker {
  /**
   * Where committed messages go to be checked, for the one thread that commits them; their verdicts come back on it, for
   * that thread to store (store-verdicts.ts).
   */
  port: MessagePort
  /**
   * Settles once the rows a stopped run left `checking` are marked unknown: nobody will check them now. Ingest listens
   * only after it (in the sender-check worker the settle raced the first mail of the run and marked it unknown).
   */
  ready: Promise<void>
  /**
   * What was not checked is stored as unknown, by the worker itself. Call it before the committing thread stops, so that
   * verdicts already sent there are stored (one sent in the last moment may be lost: it reads "checking" until the next
   * start marks it unknown).
   */
  stop: () => Promise<void>
}

/**
 * Starts the sender-check worker, or returns null when MAIL_AUTH=off. With `checkpoint`, the worker also keeps the WAL short
 * and fills the search index (wal-checkpointer.ts) from the store worker's commit notices on that port.
 */
export function startAuthChecker(
  config: Config,
  storage: Pick<Storage, 'settleLeftoverChecks'>,
  onCrash: (error: Error) => void,
  checkpoint: { storePort: MessagePort; bytes: number } | null = null,
): AuthChecker | null {
  if (!config.mailAuth.enabled) return null
  const ready = storage.settleLeftoverChecks(Date.now()).then((settled) => {
    if (settled > 0) console.log(`[mail-auth] ${settled} messages left unchecked by the last run marked unknown`)
  })
  const channel = new MessageChannel()
  let stopped: () => void = () => {}
  const worker = startWorker(new URL('./worker.ts', import.meta.url), {
    workerData: { database: storageConfig(config, { poolSize: 2 }), config: config.mailAuth, mta: config.mailDomains[0], jobPort: channel.port2, checkpoint },
    transferList: [channel.port2, ...(checkpoint ? [checkpoint.storePort] : [])],
    youngGenerationMb: config.checkWorkerYoungGenerationMb,
    oldGenerationMb: config.workerOldGenerationMb,
    onMessage: (message) => {
      if (message === STOPPED) stopped()
    },
    onCrash,
  })
  return {
    port: channel.port1,
    ready,
    stop: async () => {
      const done = new Promise<void>((resolve) => {
        stopped = resolve
        setTimeout(resolve, STOP_WAIT_MS).unref()
      })
      worker.worker.postMessage({ type: 'stop' } satisfies AuthWorkerCommand)
      await done
      channel.port1.close()
      await worker.stop()
    },
  }
}
