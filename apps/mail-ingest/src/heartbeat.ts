import { INGEST_SERVICE, writeHeartbeat, type Db } from '@tempbox/db'

/**
 * Tells the API's readiness check that ingest is up and can write the file it stores mail in. A failed write is
 * only logged: the heartbeat going stale is exactly what the check is there to notice. `first` settles once the first
 * write has been tried: ingest says it is listening only after, so no reader of that line sees the api call it absent.
 */
export function startHeartbeat(db: Db, intervalMs: number): { first: Promise<void>; stop: () => void } {
  const beat = () =>
    writeHeartbeat(db, INGEST_SERVICE, Date.now(), intervalMs).catch((error: unknown) => {
      console.error('[smtp] writing the heartbeat failed:', error instanceof Error ? error.message : error)
    })
  const first = beat()
  const timer = setInterval(() => void beat(), intervalMs)
  timer.unref()
  return { first, stop: () => clearInterval(timer) }
}
