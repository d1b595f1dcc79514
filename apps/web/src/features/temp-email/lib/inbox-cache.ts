import type { InboxResponse, MessageSummary } from '@tempbox/types'
import type { ScopedMutator } from 'swr'
import { inboxUrl } from '../api/inbox'

/** Older messages the reader asked for ("Load older messages"), kept in the SWR cache beside the first page. */
export interface OlderMessages {
  messages: MessageSummary[]
  /** The server said there is nothing older. */
  end: boolean
}

/** SWR key of the older messages: client state only, never fetched by SWR itself. */
export function olderKey(email: string): string {
  return `${inboxUrl(email)}#older`
}

/** Newest first, each id once; on a clash the first list wins. */
export function mergeMessages(a: readonly MessageSummary[], b: readonly MessageSummary[]): MessageSummary[] {
  const seen = new Set<string>()
  const out: MessageSummary[] = []
  for (const m of [...a, ...b]) {
    if (seen.has(m.id)) continue
    seen.add(m.id)
    out.push(m)
  }
  return out.sort((x, y) => Number(y.id) - Number(x.id))
}

/**
 * What the inbox shows: the first page as last fetched or pushed, then the older messages below it. Messages that
 * a newer arrival pushed off the first page are among the older ones once older pages were loaded.
 */
export function visibleMessages(first: InboxResponse | undefined, older: OlderMessages | undefined): MessageSummary[] {
  const top = first?.messages ?? []
  if (!older) return top
  const lowest = top.reduce((min, m) => Math.min(min, Number(m.id)), Number.POSITIVE_INFINITY)
  return [...top, ...mergeMessages([], older.messages.filter((m) => Number(m.id) < lowest))]
}

/** A message pushed by the server goes on top of the first page (once) and counts in the total. */
export async function addMessage(mutate: ScopedMutator, email: string, message: MessageSummary): Promise<void> {
  let loaded = true
  await mutate<InboxResponse>(
    inboxUrl(email),
    (current) => {
      loaded = current !== undefined
      if (!current || current.messages.some((m) => m.id === message.id)) return current
      return { ...current, messages: [message, ...current.messages], total: current.total + 1, unread: current.unread + (message.read ? 0 : 1) }
    },
    { revalidate: false },
  )
  // Nothing to add it to yet: the first page, fetched now, has it.
  if (!loaded) await mutate(inboxUrl(email))
}

/** A deleted message leaves whichever list shows it, and the total. */
export async function removeMessage(mutate: ScopedMutator, email: string, id: string): Promise<void> {
  let inOlder = false
  await mutate<OlderMessages>(
    olderKey(email),
    (current) => {
      if (!current) return current
      const messages = current.messages.filter((m) => m.id !== id)
      inOlder = messages.length !== current.messages.length
      return { ...current, messages }
    },
    { revalidate: false },
  )
  await mutate<InboxResponse>(
    inboxUrl(email),
    (current) => {
      if (!current) return current
      const messages = current.messages.filter((m) => m.id !== id)
      const found = inOlder || messages.length !== current.messages.length
      const gone = current.messages.find((m) => m.id === id)
      const unread = gone && !gone.read ? Math.max(0, current.unread - 1) : current.unread
      return { ...current, messages, total: found ? Math.max(0, current.total - 1) : current.total, unread }
    },
    { revalidate: false },
  )
}
