import type { Worker } from 'node:worker_threads'

/** A started worker thread, as startWorker gives it. */
export interface StartedParser {
  worker: Worker
  stop: () => Promise<void>
}

/**
 * A parse worker given no mail that needs one for this long takes no more (small texts go to the store worker again),
 * and stops once the mail it holds is stored.
 */
export const PARSER_IDLE_MS = 10_000

export interface ParseWorkers {
  /** Whether a parse worker had mail that needed one within the idle time: then it takes small texts too. */
  wanted: () => boolean
  /**
   * The least busy parse worker, started if it is not running, busy with one more message until `settled`. `needed`:
   * the message could not go to the store worker (HTML, parts, size), which keeps the worker wanted.
   */
  take: (needed: boolean) => { index: number; worker: Worker }
  settled: (index: number) => void
  /** Whether a parse worker is running (wanted, or holding mail). */
  running: () => boolean
  stop: () => Promise<void>
}

/**
 * Up to `count` parse workers, each started by `start` when first given a message and stopped once `idleMs` passed
 * without mail that needed it and nothing is in flight: while all mail is small text, which the store worker parses
 * itself, none runs. In a mix the store worker only stores (parsing there too cost the real-mail corpus 8-16 %).
 */
export function parseWorkers(count: number, start: () => StartedParser, idleMs = PARSER_IDLE_MS): ParseWorkers {
  const workers: (StartedParser | undefined)[] = Array.from({ length: count })
  const load: number[] = Array.from({ length: count }, () => 0)
  const lastNeeded: number[] = Array.from({ length: count }, () => 0)
  let timer: NodeJS.Timeout | null = null
  const stopIdle = () => {
    timer = null
    const now = Date.now()
    workers.forEach((worker, i) => {
      if (!worker || load[i]! > 0 || now - lastNeeded[i]! < idleMs) return
      workers[i] = undefined
      void worker.stop()
    })
    if (workers.some(Boolean)) timer = setTimeout(stopIdle, idleMs).unref()
  }
  return {
    wanted: () => {
      const now = Date.now()
      return workers.some((worker, i) => worker !== undefined && now - lastNeeded[i]! < idleMs)
    },
    take: (needed) => {
      const index = load.indexOf(Math.min(...load))
      const worker = (workers[index] ??= start())
      load[index]!++
      if (needed) lastNeeded[index] = Date.now()
      timer ??= setTimeout(stopIdle, idleMs).unref()
      return { index, worker: worker.worker }
    },
    settled: (index) => {
      load[index]!--
    },
    running: () => workers.some(Boolean),
    stop: async () => {
      if (timer) clearTimeout(timer)
      timer = null
      const running = workers.filter((w): w is StartedParser => w !== undefined)
      workers.fill(undefined)
      await Promise.all(running.map((w) => w.stop()))
    },
  }
}
