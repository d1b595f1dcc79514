import type { Db, MessageContentRow } from '@tempbox/db'

/** The whole text and HTML of a message: only for deriving its view, once. */
export async function findMessageBodies(db: Db, messageContentId: number): Promise<Pick<MessageContentRow, 'text' | 'html'>> {
  const row = await db.selectFrom('message_content').select(['text', 'html']).where('id', '=', messageContentId).executeTakeFirst()
  return row ?? { text: null, html: null }
}

/** The derived columns of a message (@tempbox/mail-derive), as stored. */
export type DerivedColumns = Pick<
  MessageContentRow,
  'derived_version' | 'preview' | 'html_text' | 'codes' | 'links' | 'safe_html' | 'has_remote_content' | 'html_withheld'
>

/**
 * Stores a derivation made at first read (a message from before derivation at ingest). Only over an older one: a
 * concurrent reader that stored the same version first wins, with identical values.
 */
export async function storeDerived(db: Db, messageContentId: number, columns: DerivedColumns): Promise<void> {
  await db
    .updateTable('message_content')
    .set(columns)
    .where('id', '=', messageContentId)
    .where((eb) => eb.or([eb('derived_version', 'is', null), eb('derived_version', '<', columns.derived_version ?? 0)]))
    .execute()
}

/** Content-IDs of a message's attachments by position: the derivation maps `cid:` references with them. */
export async function listContentIds(db: Db, messageContentId: number): Promise<(string | null)[]> {
  const rows = await db
    .selectFrom('attachment')
    .select(['position', 'content_id'])
    .where('message_content_id', '=', messageContentId)
    .orderBy('position')
    .execute()
  const ids: (string | null)[] = []
  for (const r of rows) ids[r.position] = r.content_id
  return Array.from(ids, (id) => id ?? null)
}
