import type { Db } from '@tempbox/db'
import type { SMTPServerAddress, SMTPServerEnvelope, SMTPServerSession } from 'smtp-server'
import type { Config } from './config.js'
import type { RefusalReason } from './metrics.js'
import { smtpError } from './smtp-error.js'

/** Inbox ids of the accepted recipients, per SMTP transaction (smtp-server replaces the envelope on RSET/EHLO/after DATA). */
const acceptedInboxes = new WeakMap<SMTPServerEnvelope, Map<string, number>>()

/** The inboxes the current transaction's accepted recipients map to, without duplicates. */
export function recipientInboxIds(session: SMTPServerSession): number[] {
  return [...new Set(acceptedInboxes.get(session.envelope)?.values() ?? [])]
}

/** Past this many cached addresses the cache starts over rather than growing without bound. */
const MAX_CACHED_INBOXES = 50_000

export interface InboxLookup {
  /** Id of the active (not expired) inbox with this lower-cased address, or null. */
  findActiveInboxId: (address: string) => Promise<number | null>
}

/**
 * Caches found inboxes briefly: a burst of mail to one address asks SQLite once. Misses are never cached,
 * so an address generated a moment ago receives mail at once; expiry is re-checked on every hit.
 */
export function createInboxLookup(db: Db, cacheMs: number): InboxLookup {
  const cache = new Map<string, { id: number; expiresAt: number; checkedAt: number }>()
  return {
    findActiveInboxId: async (address) => {
      const now = Date.now()
      const hit = cache.get(address)
      if (hit && now - hit.checkedAt < cacheMs && hit.expiresAt > now) return hit.id
      const row = await db
        .selectFrom('inbox')
        .select(['id', 'expires_at'])
        .where('address', '=', address)
        .where('expires_at', '>', now)
        .executeTakeFirst()
      if (!row) {
        cache.delete(address)
        return null
      }
      if (cache.size >= MAX_CACHED_INBOXES) cache.clear()
      cache.set(address, { id: row.id, expiresAt: row.expires_at, checkedAt: now })
      return row.id
    },
  }
}

/**
 * Decides at RCPT, before any data is sent: foreign domains are refused as relaying (we are never an
 * open relay), unknown or expired addresses with 550 5.1.1, and recipients beyond the cap with 452.
 */
export function createOnRcptTo(config: Config, lookup: InboxLookup, refused: (reason: RefusalReason) => void = () => {}) {
  const domains = new Set(config.mailDomains)
  return (
    address: SMTPServerAddress,
    session: SMTPServerSession,
    callback: (error?: Error | null) => void,
  ): void => {
    const recipient = address.address.trim().toLowerCase()
    const at = recipient.lastIndexOf('@')
    const domain = at >= 0 ? recipient.slice(at + 1) : ''
    if (!domains.has(domain)) {
      refused('relay_denied')
      callback(smtpError(550, '5.7.1 Relaying denied: this server only accepts mail for its own domains'))
      return
    }
    if (session.envelope.rcptTo.length >= config.maxRecipients) {
      refused('too_many_recipients')
      callback(smtpError(452, '4.5.3 Too many recipients'))
      return
    }
    lookup.findActiveInboxId(recipient).then(
      (inboxId) => {
        if (inboxId === null) {
          refused('unknown_recipient')
          callback(smtpError(550, '5.1.1 Mailbox unavailable: no such address, or it has expired'))
          return
        }
        let accepted = acceptedInboxes.get(session.envelope)
        if (!accepted) acceptedInboxes.set(session.envelope, (accepted = new Map()))
        accepted.set(recipient, inboxId)
        callback()
      },
      (error: unknown) => {
        console.error('[smtp] inbox lookup failed:', error)
        refused('lookup_failed')
        callback(smtpError(451, '4.3.0 Temporary failure, please try again later'))
      },
    )
  }
}
