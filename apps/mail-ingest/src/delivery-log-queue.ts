import { recordDeliveries, type DeliveryEntry, type Storage } from '@tempbox/db'

/** Entries per write: a flush of a full queue is a few statements, not one per entry. */
const FLUSH_AT_ENTRIES = 500

/**
 * The delivery log's refused and deferred entries (an accepted one rides in its message's commit): batched, written
 * every `flushMs` or at FLUSH_AT_ENTRIES, in a queue of at most `maxQueued`. Past it, or when a write fails, entries
 * are dropped and counted: the log explains, it is not mail.
 */
export interface DeliveryLogQueue {
  push(entry: DeliveryEntry): void
  /** Writes what is queued (at close, and in tests). */
  flush(): Promise<void>
  close(): Promise<void>
}

export function createDeliveryLogQueue(
  storage: Pick<Storage, 'db'>,
  options: { keep: number; maxQueued: number; flushMs: number },
  dropped: (count: number) => void,
): DeliveryLogQueue {
  let queue: DeliveryEntry[] = []
  /** Entries taken from the queue and not yet written: they count against `maxQueued` too. */
  let writingEntries = 0
  let writing: Promise<void> = Promise.resolve()
  const flush = () => {
    if (queue.length === 0) return writing
    const batch = queue
    queue = []
    writingEntries += batch.length
    writing = writing.then(() =>
      recordDeliveries(storage.db, batch, { keep: options.keep })
        .catch((error: unknown) => {
          console.error('[smtp] writing the delivery log failed:', error)
          dropped(batch.length)
        })
        .finally(() => (writingEntries -= batch.length)),
    )
    return writing
  }
  const timer = setInterval(() => void flush(), options.flushMs)
  timer.unref()
  return {
    push: (entry) => {
      if (queue.length + writingEntries >= options.maxQueued) {
        dropped(1)
        return
      }
      queue.push(entry)
      if (queue.length >= FLUSH_AT_ENTRIES) void flush()
    },
    flush,
    close: async () => {
      clearInterval(timer)
      await flush()
    },
  }
}
