import { TempboxTimeoutError } from './errors.js'

/** The API holds one long poll open at most this long (its `timeout` query maximum). */
const MAX_POLL_SECONDS = 60

/**
 * Runs `poll` (one long poll of at most `seconds`) again after each of its empty answers until it finds something or
 * `timeoutMs` has passed; the poll in flight is aborted at the deadline, so a wait never outlasts what it was given.
 */
export async function waitUntil<T>(
  timeoutMs: number,
  describe: () => string,
  signal: AbortSignal | undefined,
  poll: (seconds: number, signal: AbortSignal) => Promise<T | null>,
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  const timeout = () => new TempboxTimeoutError(`${describe()} within ${timeoutMs} ms`, timeoutMs)
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(), timeoutMs)
  const forward = () => controller.abort(signal?.reason)
  signal?.addEventListener('abort', forward, { once: true })
  try {
    signal?.throwIfAborted()
    for (;;) {
      const remaining = deadline - Date.now()
      if (remaining <= 0) throw timeout()
      const found = await poll(Math.min(MAX_POLL_SECONDS, Math.ceil(remaining / 1000)), controller.signal)
      if (found !== null) return found
    }
  } catch (error) {
    if (controller.signal.aborted && !signal?.aborted) throw timeout()
    throw error
  } finally {
    clearTimeout(timer)
    signal?.removeEventListener('abort', forward)
  }
}
