/**
 * Items for another thread go in one message per turn of the event loop (`delayMs` 0) or per `delayMs`: each message
 * between threads costs a serialization and a wake-up of the receiver whatever it holds. Only for what no 250 waits
 * for (sender-check jobs): on a message's way to its 250, waiting for the batch cost throughput.
 */
export interface PostBatches<T> {
  /** Queues `item`; `transfer` is memory that moves with it (the caller must not read it afterwards). */
  push: (item: T, transfer?: ArrayBuffer[]) => void
  /** Posts what is queued now (before a thread stops, say). */
  flush: () => void
}

export function postBatches<T>(post: (items: T[], transfer: ArrayBuffer[]) => void, delayMs = 0): PostBatches<T> {
  let items: T[] = []
  let transfer: ArrayBuffer[] = []
  let cancel: (() => void) | null = null
  const flush = () => {
    cancel?.()
    cancel = null
    if (items.length === 0) return
    const batch = items
    const moved = transfer
    items = []
    transfer = []
    // A buffer listed twice would fail the whole post.
    post(batch, moved.length > 1 ? [...new Set(moved)] : moved)
  }
  return {
    push: (item, moves) => {
      items.push(item)
      if (moves) for (const buffer of moves) transfer.push(buffer)
      if (cancel) return
      if (delayMs === 0) {
        const immediate = setImmediate(flush)
        cancel = () => clearImmediate(immediate)
      } else {
        const timeout = setTimeout(flush, delayMs)
        cancel = () => clearTimeout(timeout)
      }
    },
    flush,
  }
}

