import { isAscii, isUtf8 } from 'node:buffer'
import { sql, type RawBuilder } from 'kysely'
import { asUtf8Bytes, type Db } from '@tempbox/db'

/** What a message view shows of the text part: its beginning, at most `maxChars` characters (see findViewText). */
export interface ViewText {
  text: string | null
  truncated: boolean
}

/** The same, as the UTF-8 bytes it is stored as (see findViewTextBytes). */
export interface ViewTextBytes {
  text: Buffer | null
  truncated: boolean
}

/**
 * At most `maxChars` characters of the message's text part, reading no more than that: a text short enough (in bytes:
 * octet_length() is answered from the record header) is read whole, a longer one through its stored head
 * (message_text_head, reached without walking the pages of `text` and `raw`), which is filled here at its first read.
 * Only that first read pays for the whole text. A head stored under a smaller limit is filled again; one that cannot
 * be stored (a read-only database) is cut in SQL for this read. Characters are counted as JavaScript counts them
 * (UTF-16 units), and a cut never splits one.
 */
export async function findViewText(db: Db, messageContentId: number, maxChars: number): Promise<ViewText> {
  return readViewText(db, messageContentId, maxChars, false, stringHead)
}

/**
 * findViewText's text as UTF-8 bytes, cut at the same character: on SQLite read as a BLOB, so no JavaScript string of
 * it is ever made (the message view's bytes are spliced from it; see MessageReadService.fullMessageJson).
 */
export async function findViewTextBytes(db: Db, messageContentId: number, maxChars: number): Promise<ViewTextBytes> {
  return readViewText(db, messageContentId, maxChars, true, utf8Head)
}

async function readViewText<T extends string | Buffer>(
  db: Db,
  messageContentId: number,
  maxChars: number,
  bytes: boolean,
  headOf: (text: string | Buffer, maxUnits: number) => { head: T; more: boolean },
): Promise<{ text: T | null; truncated: boolean }> {
  const asRead = (value: RawBuilder<string | null>) => (bytes ? asUtf8Bytes(db, value) : value)
  const read = () =>
    db
      .selectFrom('message_content')
      .leftJoin('message_text_head', 'message_text_head.message_content_id', 'message_content.id')
      .select([
        asRead(sql<string | null>`case when octet_length(message_content.text) <= ${maxChars} then message_content.text else message_text_head.text end`).as('text'),
        sql<number>`cast(octet_length(message_content.text) > ${maxChars} as integer)`.as('long'),
        sql<number>`cast(octet_length(message_content.text) > coalesce(octet_length(message_text_head.text), 0) as integer)`.as('cut'),
      ])
      .where('message_content.id', '=', messageContentId)
      .executeTakeFirst()
  let row = await read()
  if (!row) return { text: null, truncated: false }
  // A text of at most maxChars bytes holds at most maxChars characters: it is shown whole.
  if (!row.long) return { text: row.text === null ? null : headOf(row.text, Infinity).head, truncated: false }
  let cut = row.text === null ? null : headOf(row.text, maxChars)
  // A head one character longer than shown tells "cut here" from "this is all of it".
  const stale = cut === null || (row.cut === 1 && !cut.more)
  if (stale) {
    const head = sql<string>`substr(text, 1, ${maxChars + 1})`
    try {
      await db
        .insertInto('message_text_head')
        .columns(['message_content_id', 'text'])
        .expression((eb) => eb.selectFrom('message_content').select(['id', head.as('text')]).where('id', '=', messageContentId))
        .onConflict((oc) => oc.column('message_content_id').doUpdateSet((eb) => ({ text: eb.ref('excluded.text') })))
        .execute()
      row = (await read()) ?? row
    } catch {
      const fallback = await db.selectFrom('message_content').select(asRead(head).as('text')).where('id', '=', messageContentId).executeTakeFirst()
      row = { ...row, text: fallback?.text ?? null, cut: 1 }
    }
    cut = headOf(row.text ?? '', maxChars)
  }
  return { text: cut!.head, truncated: row.cut === 1 && cut!.more }
}

/** At most `maxUnits` UTF-16 units of a string, never ending between the two halves of a character. */
function stringHead(text: string | Buffer, maxUnits: number): { head: string; more: boolean } {
  const s = typeof text === 'string' ? text : text.toString('utf8')
  if (s.length <= maxUnits) return { head: s, more: false }
  let end = maxUnits
  const last = s.charCodeAt(end - 1)
  if (last >= 0xd800 && last <= 0xdbff) end--
  return { head: s.slice(0, end), more: true }
}

/**
 * The UTF-8 bytes of stringHead's head: at most `maxUnits` UTF-16 units (a 4-byte character counts two), cut before a
 * character that would not fit whole. A subarray: nothing is copied.
 */
export function utf8Head(text: string | Buffer, maxUnits: number): { head: Buffer; more: boolean } {
  const bytes = typeof text === 'string' ? Buffer.from(text) : text
  // Each character is at least one byte and at most two units per four bytes: short enough needs no count.
  if (bytes.length <= maxUnits) return { head: bytes, more: false }
  // Counted natively where it can be (a byte loop run once per message is rarely optimized yet): ASCII is a unit a
  // byte; other valid UTF-8 is decoded, cut as stringHead cuts, and the cut measured in bytes.
  if (isAscii(bytes)) return { head: bytes.subarray(0, maxUnits), more: true }
  if (isUtf8(bytes)) {
    const { head, more } = stringHead(bytes.toString('utf8'), maxUnits)
    return { head: more ? bytes.subarray(0, Buffer.byteLength(head)) : bytes, more }
  }
  let units = 0
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!
    if ((b & 0xc0) === 0x80) continue // a continuation byte
    units += b >= 0xf0 ? 2 : 1
    if (units > maxUnits) return { head: bytes.subarray(0, i), more: true }
  }
  return { head: bytes, more: false }
}
