import type { Kysely } from 'kysely'

/**
 * mail-ingest runs in a process (or a container) of its own; the API's readiness check reads when it last said it
 * was up, and until when that news holds (the writer knows its own interval). One row per service, overwritten in place.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('service_heartbeat')
    .addColumn('service', 'text', (c) => c.primaryKey())
    .addColumn('beat_at', 'integer', (c) => c.notNull())
    .addColumn('stale_at', 'integer', (c) => c.notNull())
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('service_heartbeat').execute()
}
