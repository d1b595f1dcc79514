/**
 * PostgreSQL's change notification: what the ingest writer and the delete triggers NOTIFY, and what a listening
 * storage reads. Payloads name ids only, never content (any role that may LISTEN would read them). A NOTIFY sent
 * inside a transaction is delivered when it commits, and never when it rolls back.
 */
export const NEW_MAIL_CHANNEL = 'tempbox_new_mail'
export const DELETES_CHANNEL = 'tempbox_deletes'
export const CHANGES_CHANNEL = 'tempbox_changes'

/**
 * A payload must stay under 8,000 bytes; ids of a larger batch go in several notifications (the writer's listing insert
 * sends them, write-messages.ts), 150 pairs of ids of up to 16 digits each.
 */
export const IDS_PER_NOTIFICATION = 150

/** Messages committed by an ingest node, `[messageId, inboxId]` each. */
export interface NewMail {
  messages: [id: number, inboxId: number][]
}

/**
 * What was deleted (a message, an inbox: deleted, expired or burnt) — or `unknown`: some deletions may have gone
 * unheard (the listening connection was lost, or a statement deleted more than a notification can name), so a
 * reader re-reads what it shows.
 */
export type DeleteEvent =
  | { type: 'messages'; messages: [id: number, inboxId: number][] }
  | { type: 'inboxes'; inboxIds: number[] }
  | { type: 'unknown' }

/** Reads a new-mail payload; null when it is not one of ours (the signal is then only "something changed"). */
export function parseNewMail(payload: string | undefined): NewMail | null {
  try {
    const parsed = JSON.parse(payload ?? '') as { m?: unknown }
    return Array.isArray(parsed.m) ? { messages: parsed.m as [number, number][] } : null
  } catch {
    return null
  }
}

/** Reads a delete payload (written by the triggers of migration 2026_11_24_003002); anything else reads as `unknown`. */
export function parseDeletes(payload: string | undefined): DeleteEvent {
  try {
    const parsed = JSON.parse(payload ?? '') as { m?: unknown; i?: unknown }
    if (Array.isArray(parsed.m)) return { type: 'messages', messages: parsed.m as [number, number][] }
    if (Array.isArray(parsed.i)) return { type: 'inboxes', inboxIds: parsed.i as number[] }
  } catch {
    // falls through: a reader re-reads rather than miss a deletion
  }
  return { type: 'unknown' }
}

/**
 * A change that makes cached rows stale without adding or deleting one (migration 2026_11_24_006001): a message of the
 * inbox marked read or unread (`readState`), or the inbox's owner, burn mode or expiry changed (`inbox`). `unknown`:
 * some may have gone unheard (the listening connection was lost) — drop what is cached.
 */
export type ChangeEvent = { type: 'readState'; inboxId: number } | { type: 'inbox'; inboxId: number } | { type: 'unknown' }

/** Reads a change payload (`{"r":<inbox id>}` or `{"i":<inbox id>}`); anything else reads as `unknown`. */
export function parseChange(payload: string | undefined): ChangeEvent {
  try {
    const parsed = JSON.parse(payload ?? '') as { r?: unknown; i?: unknown }
    if (typeof parsed.r === 'number') return { type: 'readState', inboxId: parsed.r }
    if (typeof parsed.i === 'number') return { type: 'inbox', inboxId: parsed.i }
  } catch {
    // falls through: a reader drops its caches rather than keep a stale one
  }
  return { type: 'unknown' }
}
