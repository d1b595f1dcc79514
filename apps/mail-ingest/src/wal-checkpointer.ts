import type { Storage } from '@tempbox/db'

/** A quiet spell after a burst: fold the rest in too, so readers find a short WAL. */
const IDLE_CHECKPOINT_MS = 200

/**
 * Copies committed WAL frames into the database file once `checkpointBytes` were committed (a PASSIVE checkpoint never
 * blocks a writer), or after a quiet spell. Left to SQLite, the commit that crosses the autocheckpoint size would write
 * and fsync megabytes of the main file before its messages could be acknowledged. `committed` is told after each commit;
 * the checkpoint itself waits for a later turn of the event loop, after that commit's acknowledgements are sent.
 */
export function createWalCheckpointer(storage: Pick<Storage, 'checkpoint'>, checkpointBytes: number): { committed: (bytes: number) => void } {
  let pendingBytes = 0
  let idleTimer: NodeJS.Timeout | null = null
  let soon: NodeJS.Immediate | null = null
  const checkpoint = () => {
    pendingBytes = 0
    if (idleTimer) clearTimeout(idleTimer)
    if (soon) clearImmediate(soon)
    idleTimer = null
    soon = null
    void storage.checkpoint()
  }
  return {
    committed: (bytes) => {
      pendingBytes += bytes
      if (pendingBytes >= checkpointBytes) soon ??= setImmediate(checkpoint)
      else idleTimer ??= setTimeout(checkpoint, IDLE_CHECKPOINT_MS)
    },
  }
}
