import type { StoredVerdict } from '@tempbox/db'
import type { AuthVerdict } from './check.js'

/** Verdicts written together: one transaction per batch, not per message. */
const MAX_BATCH = 256
/** How long a verdict may wait for others to share its transaction. */
const BATCH_DELAY_MS = 50

type WriteVerdicts = (batch: [contentId: number, verdict: StoredVerdict][], at: number) => Promise<void>

/**
 * Batches the verdicts that arrive close together for `writeVerdicts` (which hands them to the committing thread, or
 * stores them: the storage's writeVerdicts replaces each message's `checking` row; a message deleted meanwhile has no
 * row left, and nothing changes).
 */
export function createVerdictWriter(writeVerdicts: WriteVerdicts, now: () => number = Date.now) {
  const pending: [number, StoredVerdict][] = []
  let timer: NodeJS.Timeout | null = null
  let flushing: Promise<void> = Promise.resolve()
  const writeAll = async () => {
    while (pending.length > 0) {
      const batch = pending.splice(0, MAX_BATCH)
      try {
        await writeVerdicts(batch, now())
      } catch (error) {
        // A verdict is worth less than ingest: a locked or full store loses these (they read "checking" until the
        // next start marks them unknown), and mail keeps flowing.
        console.error('[mail-auth] storing verdicts failed:', error instanceof Error ? error.message : error)
      }
    }
  }
  /** Resolves once every verdict handed in so far is written (or has failed). */
  const flush = (): Promise<void> => {
    if (timer) clearTimeout(timer)
    timer = null
    flushing = flushing.then(writeAll)
    return flushing
  }
  return {
    write(contentId: number, { status, details, authenticationResults }: AuthVerdict) {
      pending.push([contentId, { status, details: details ? JSON.stringify(details) : null, authenticationResults }])
      if (pending.length >= MAX_BATCH) void flush()
      else timer ??= setTimeout(() => void flush(), BATCH_DELAY_MS)
    },
    flush,
  }
}
