/** SMTP thread → auth worker. */
export type AuthWorkerCommand = { type: 'stop' }
/** Auth worker → SMTP thread: everything it held is stored (as unknown if unchecked). */
export const STOPPED = 'mail-auth-stopped'
