import type { Kysely } from 'kysely'
import { deriveStoredViews } from './derive-backfill.js'

/**
 * Every message stored without the current derived view (from before derivation at ingest, or an older one) gets it
 * now, once, so the API never derives at read time (issue 27). Both engines run this file.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await deriveStoredViews(db)
}

/** The views stay: older code reads them as its own (it derived the same columns at first read). */
export async function down(): Promise<void> {}
