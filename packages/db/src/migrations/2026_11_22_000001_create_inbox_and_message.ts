import type { Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('user')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('username', 'text')
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull().defaultTo('user'))
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .execute()

  await db.schema
    .createTable('inbox')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('address', 'text', (c) => c.notNull().unique())
    .addColumn('local_part', 'text', (c) => c.notNull())
    .addColumn('domain', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.references('user.id').onDelete('cascade'))
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'integer', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('inbox_expires_at').on('inbox').column('expires_at').execute()
  await db.schema.createIndex('inbox_user_id').on('inbox').column('user_id').execute()

  await db.schema
    .createTable('message')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('inbox_id', 'integer', (c) => c.notNull().references('inbox.id').onDelete('cascade'))
    .addColumn('from_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('from_address', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('recipients', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('subject', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('text', 'text')
    .addColumn('html', 'text')
    .addColumn('sent_at', 'integer')
    .addColumn('received_at', 'integer', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('headers', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('raw', 'blob', (c) => c.notNull())
    .addColumn('attachment_count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()
  // Inbox listing reads newest first within one inbox.
  await db.schema
    .createIndex('message_inbox_received')
    .on('message')
    .columns(['inbox_id', 'received_at desc', 'id desc'])
    .execute()

  await db.schema
    .createTable('attachment')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('message_id', 'integer', (c) => c.notNull().references('message.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('content_id', 'text')
    .addColumn('is_inline', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('content', 'blob', (c) => c.notNull())
    .addUniqueConstraint('attachment_message_position', ['message_id', 'position'])
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('attachment').execute()
  await db.schema.dropTable('message').execute()
  await db.schema.dropTable('inbox').execute()
  await db.schema.dropTable('user').execute()
}
