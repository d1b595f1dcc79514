import { sql, type Kysely } from 'kysely'

/**
 * Webhooks per inbox and their delivery queue. A trigger on `message` enqueues the deliveries inside the very
 * transaction that stores the message, so whichever process writes mail, a message committed (and so acknowledged
 * with 250) always has its deliveries queued: a crash cannot separate the two. Counters kept by triggers let that
 * trigger enforce the per-inbox and global caps without counting rows; a delivery over a cap is stored as `dropped`
 * so its owner can see it in the delivery log. The caps themselves are written by the API from its configuration.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE webhook (
      id INTEGER PRIMARY KEY,
      inbox_id INTEGER NOT NULL UNIQUE REFERENCES inbox(id) ON DELETE CASCADE,
      url TEXT NOT NULL,
      secret TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      pending INTEGER NOT NULL DEFAULT 0
    )
  `.execute(db)
  await sql`
    CREATE TABLE webhook_delivery (
      id INTEGER PRIMARY KEY,
      delivery_id TEXT NOT NULL UNIQUE,
      webhook_id INTEGER NOT NULL REFERENCES webhook(id) ON DELETE CASCADE,
      message_id INTEGER NOT NULL REFERENCES message(id) ON DELETE CASCADE,
      state TEXT NOT NULL,
      attempts INTEGER NOT NULL DEFAULT 0,
      created_at INTEGER NOT NULL,
      next_attempt_at INTEGER NOT NULL,
      last_attempt_at INTEGER,
      last_status_code INTEGER,
      last_error TEXT
    )
  `.execute(db)
  await sql`CREATE INDEX webhook_delivery_due ON webhook_delivery (next_attempt_at) WHERE state = 'pending'`.execute(db)
  await sql`CREATE INDEX webhook_delivery_by_webhook ON webhook_delivery (webhook_id, id)`.execute(db)
  await sql`CREATE INDEX webhook_delivery_by_message ON webhook_delivery (message_id)`.execute(db)
  await sql`
    CREATE TABLE webhook_queue (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      pending INTEGER NOT NULL DEFAULT 0,
      dropped INTEGER NOT NULL DEFAULT 0,
      max_pending INTEGER NOT NULL,
      max_pending_per_inbox INTEGER NOT NULL
    )
  `.execute(db)
  await sql`INSERT INTO webhook_queue (id, max_pending, max_pending_per_inbox) VALUES (1, 10000, 100)`.execute(db)

  await sql`
    CREATE TRIGGER message_webhook_enqueue AFTER INSERT ON message
    BEGIN
      INSERT INTO webhook_delivery (delivery_id, webhook_id, message_id, state, created_at, next_attempt_at)
      SELECT lower(hex(randomblob(16))), w.id, NEW.id,
             CASE WHEN w.pending < q.max_pending_per_inbox AND q.pending < q.max_pending THEN 'pending' ELSE 'dropped' END,
             NEW.received_at, NEW.received_at
      FROM webhook w JOIN webhook_queue q ON q.id = 1
      WHERE w.inbox_id = NEW.inbox_id;
    END
  `.execute(db)
  await sql`
    CREATE TRIGGER webhook_delivery_queued AFTER INSERT ON webhook_delivery WHEN NEW.state = 'pending'
    BEGIN
      UPDATE webhook SET pending = pending + 1 WHERE id = NEW.webhook_id;
      UPDATE webhook_queue SET pending = pending + 1 WHERE id = 1;
    END
  `.execute(db)
  await sql`
    CREATE TRIGGER webhook_delivery_dropped AFTER INSERT ON webhook_delivery WHEN NEW.state = 'dropped'
    BEGIN
      UPDATE webhook_queue SET dropped = dropped + 1 WHERE id = 1;
    END
  `.execute(db)
  await sql`
    CREATE TRIGGER webhook_delivery_settled AFTER UPDATE OF state ON webhook_delivery
    WHEN OLD.state = 'pending' AND NEW.state <> 'pending'
    BEGIN
      UPDATE webhook SET pending = pending - 1 WHERE id = OLD.webhook_id;
      UPDATE webhook_queue SET pending = pending - 1 WHERE id = 1;
    END
  `.execute(db)
  await sql`
    CREATE TRIGGER webhook_delivery_removed AFTER DELETE ON webhook_delivery WHEN OLD.state = 'pending'
    BEGIN
      UPDATE webhook SET pending = pending - 1 WHERE id = OLD.webhook_id;
      UPDATE webhook_queue SET pending = pending - 1 WHERE id = 1;
    END
  `.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['message_webhook_enqueue', 'webhook_delivery_queued', 'webhook_delivery_dropped', 'webhook_delivery_settled', 'webhook_delivery_removed']) {
    await sql`DROP TRIGGER IF EXISTS ${sql.raw(t)}`.execute(db)
  }
  await db.schema.dropTable('webhook_delivery').execute()
  await db.schema.dropTable('webhook_queue').execute()
  await db.schema.dropTable('webhook').execute()
}
