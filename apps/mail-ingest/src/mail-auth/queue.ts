import { UNKNOWN, type AuthVerdict, type SmtpEnvelope } from './check.js'

/** A committed message waiting for its check: the content row it belongs to and the bytes as received. */
export interface AuthJob {
  contentId: number
  raw: Uint8Array
  envelope: SmtpEnvelope
}

export interface AuthQueueOptions {
  check: (job: AuthJob) => Promise<AuthVerdict>
  /** Checks running at once (each mostly waits on DNS). */
  concurrency: number
  /** Jobs and bytes waiting beyond those running; a job past either is answered `unknown` at once. */
  maxQueued: number
  maxQueuedBytes: number
  /** A check still running after this is answered `unknown`; it keeps its slot until it really ends (DNS timeouts bound it). */
  timeoutMs: number
  onVerdict: (contentId: number, verdict: AuthVerdict) => void
}

/**
 * Bounded in every direction: at most `concurrency` checks at once, at most `maxQueued` jobs (and `maxQueuedBytes`) held,
 * each verdict given within `timeoutMs`. Under a flood, memory stays flat and messages are marked unknown rather than
 * checked late.
 */
export function createAuthQueue(options: AuthQueueOptions) {
  const waiting: AuthJob[] = []
  let waitingBytes = 0
  let running = 0
  const unanswered = new Set<number>()
  let idle: (() => void) | null = null

  const answer = (contentId: number, verdict: AuthVerdict) => {
    if (!unanswered.delete(contentId)) return
    options.onVerdict(contentId, verdict)
  }
  const next = () => {
    while (running < options.concurrency && waiting.length > 0) {
      const job = waiting.shift()!
      waitingBytes -= job.raw.byteLength
      running++
      const timer = setTimeout(() => answer(job.contentId, UNKNOWN), options.timeoutMs)
      options.check(job).then(
        (verdict) => answer(job.contentId, verdict),
        (error: unknown) => {
          console.error('[mail-auth] check failed:', error instanceof Error ? error.message : error)
          answer(job.contentId, UNKNOWN)
        },
      ).finally(() => {
        clearTimeout(timer)
        running--
        next()
      })
    }
    if (running === 0 && waiting.length === 0) idle?.()
  }
  return {
    push(job: AuthJob) {
      unanswered.add(job.contentId)
      if (waiting.length >= options.maxQueued || waitingBytes + job.raw.byteLength > options.maxQueuedBytes) {
        answer(job.contentId, UNKNOWN)
        return
      }
      waiting.push(job)
      waitingBytes += job.raw.byteLength
      next()
    },
    /** Answers everything not yet answered with `unknown` (shutting down: nothing may stay "checking"). */
    abandon() {
      waiting.length = 0
      waitingBytes = 0
      for (const contentId of [...unanswered]) answer(contentId, UNKNOWN)
    },
    /** Resolves when nothing runs or waits. */
    idle: () =>
      new Promise<void>((resolve) => {
        if (running === 0 && waiting.length === 0) resolve()
        else idle = resolve
      }),
    size: () => ({ running, waiting: waiting.length }),
  }
}
