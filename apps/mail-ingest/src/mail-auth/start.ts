import { MessageChannel, type MessagePort } from 'node:worker_threads'
import type { Config } from '../config.js'
import { startWorker } from '../worker-rpc.js'
import type { SqliteHandle } from '../store-message.js'
import { STOPPED, type AuthWorkerCommand } from './protocol.js'
import { settleLeftoverChecks } from './verdict-writer.js'

/** How long a stopping ingest waits for the auth worker to mark what it held as unknown. */
const STOP_WAIT_MS = 2_000

export interface AuthChecker {
  /** Where committed messages go to be checked: one port per thread that commits. */
  ports: MessagePort[]
  /** Call after the threads posting jobs have stopped: what was not checked is stored as unknown. */
  stop: () => Promise<void>
}

/** Starts the sender-check worker with `senders` job channels, or returns null when MAIL_AUTH=off. */
export function startAuthChecker(config: Config, sqlite: SqliteHandle, senders: number, onCrash: (error: Error) => void): AuthChecker | null {
  if (!config.mailAuth.enabled) return null
  const settled = settleLeftoverChecks(sqlite)
  if (settled > 0) console.log(`[mail-auth] ${settled} messages left unchecked by the last run marked unknown`)
  const channels = Array.from({ length: senders }, () => new MessageChannel())
  let stopped: () => void = () => {}
  const worker = startWorker(new URL('./worker.ts', import.meta.url), {
    workerData: { databasePath: config.databasePath, config: config.mailAuth, mta: config.mailDomains[0], jobPorts: channels.map((c) => c.port2) },
    transferList: channels.map((c) => c.port2),
    onMessage: (message) => {
      if (message === STOPPED) stopped()
    },
    onCrash,
  })
  return {
    ports: channels.map((c) => c.port1),
    stop: async () => {
      const done = new Promise<void>((resolve) => {
        stopped = resolve
        setTimeout(resolve, STOP_WAIT_MS).unref()
      })
      worker.worker.postMessage({ type: 'stop' } satisfies AuthWorkerCommand)
      await done
      for (const port of channels.map((c) => c.port1)) port.close()
      await worker.stop()
    },
  }
}
