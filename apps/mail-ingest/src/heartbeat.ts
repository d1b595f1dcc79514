import { INGEST_SERVICE, writeHeartbeat, type Db } from '@tempbox/db'

/**
 * Tells the API's readiness check that ingest is up and can write the file it stores mail in. A failed write is
 * only logged: the heartbeat going stale is exactly what the check is there to notice.
 */
export function startHeartbeat(db: Db, intervalMs: number): { stop: () => void } {
  const beat = () =>
    writeHeartbeat(db, INGEST_SERVICE, Date.now(), intervalMs).catch((error: unknown) => {
      console.error('[smtp] writing the heartbeat failed:', error instanceof Error ? error.message : error)
    })
  void beat()
  const timer = setInterval(() => void beat(), intervalMs)
  timer.unref()
  return { stop: () => clearInterval(timer) }
}
