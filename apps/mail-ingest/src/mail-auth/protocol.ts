import type { StoredVerdict } from '@tempbox/db'

/** SMTP thread → auth worker. */
export type AuthWorkerCommand = { type: 'stop' }
/** Auth worker → SMTP thread: everything it held is stored (as unknown if unchecked). */
export const STOPPED = 'mail-auth-stopped'
/**
 * Auth worker → the thread that commits messages, on the port the jobs came by: verdicts for that thread to store on its
 * own connection (see worker.ts).
 */
export interface VerdictBatch {
  verdicts: [contentId: number, verdict: StoredVerdict][]
  at: number
}
