import { sql } from 'kysely'
import { matchesAll, selectMessagesWithContent, type Db } from '@tempbox/db'
import type { WaitFilterName } from '@tempbox/types'
import type { MessageCondition } from './message-filter.js'
import { LIST_TEXT_CHARS } from './message-list-repository.js'

export interface NamedCondition {
  name: WaitFilterName
  condition: MessageCondition
}

export interface NearMissRow {
  id: number
  subject: string
  from_name: string
  from_address: string
  received_at: number
  failed: WaitFilterName[]
}

/**
 * The oldest `limit` messages newer than `afterId` that miss at least one condition, each with the ones it missed:
 * one query over this inbox's index (its quota caps it), each condition tested as its own column.
 */
export async function findNearMisses(db: Db, inboxId: number, afterId: number, conditions: readonly NamedCondition[], limit: number): Promise<NearMissRow[]> {
  if (conditions.length === 0) return []
  const rows = await selectMessagesWithContent(db)
    .select([
      'message.id',
      'message.received_at',
      sql<string>`substr(message.subject, 1, ${LIST_TEXT_CHARS.subject})`.as('subject'),
      sql<string>`substr(message.from_name, 1, ${LIST_TEXT_CHARS.sender})`.as('from_name'),
      sql<string>`substr(message.from_address, 1, ${LIST_TEXT_CHARS.sender})`.as('from_address'),
    ])
    .select(conditions.map(({ condition }, i) => sql<boolean | number>`${matchesAll(db, [condition])}`.as(`m${i}`)))
    .where('message.inbox_id', '=', inboxId)
    .where('message.id', '>', afterId)
    .where(sql<boolean>`not ${matchesAll(db, conditions.map((c) => c.condition))}`)
    .orderBy('message.id', 'asc')
    .limit(limit)
    .execute()
  return rows.map((row) => {
    const matched = row as unknown as Record<string, boolean | number | null>
    return {
      id: row.id,
      subject: row.subject,
      from_name: row.from_name,
      from_address: row.from_address,
      received_at: row.received_at,
      // SQLite answers 1/0, PostgreSQL true/false.
      failed: conditions.filter((_, i) => !matched[`m${i}`]).map((c) => c.name),
    }
  })
}

/** When the inbox's message `id` arrived, or null when it is not (or no longer) there. */
export async function receivedAtOf(db: Db, inboxId: number, id: number): Promise<number | null> {
  const row = await db.selectFrom('message').select('received_at').where('inbox_id', '=', inboxId).where('id', '=', id).executeTakeFirst()
  return row?.received_at ?? null
}
