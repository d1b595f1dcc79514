import type { ActiveInbox, IssuedAddresses, Storage } from '@tempbox/db'
import type { SMTPServerAddress, SMTPServerEnvelope, SMTPServerSession } from 'smtp-server'
import type { Config } from './config.js'
import type { RefusalReason } from './metrics.js'
import { smtpError, type SmtpReplyError } from './smtp-error.js'
import type { ClientLimits } from './client-limits.js'
import type { StorageGuard } from './storage-guard.js'
import type { GuessLimit } from './guess-limit.js'
import type { FaultState } from './fault-state.js'
import { faultOf, subAddress, type Fault } from './sub-address.js'
import type { DeliveryEntry, DeliveryReason } from '@tempbox/db'

/** An accepted recipient: the inbox it goes to, the +tag it was written with, the fault that tag names (if on). */
export interface Recipient {
  inboxId: number
  /** The address as written, lower-cased (with its tag). */
  address: string
  tag: string | null
  fault: Fault | null
}

/** The accepted recipients, per SMTP transaction (smtp-server replaces the envelope on RSET/EHLO/after DATA). */
const acceptedInboxes = new WeakMap<SMTPServerEnvelope, Map<string, Recipient>>()

/** The current transaction's accepted recipients, one per inbox (the first named wins). */
export function recipientDeliveries(session: SMTPServerSession): Recipient[] {
  const byInbox = new Map<number, Recipient>()
  for (const r of acceptedInboxes.get(session.envelope)?.values() ?? []) if (!byInbox.has(r.inboxId)) byInbox.set(r.inboxId, r)
  return [...byInbox.values()]
}

/** The sender as the fault tags count it: MAIL FROM, lower-cased ('' for the null sender). */
export function senderOf(session: SMTPServerSession): string {
  const from = session.envelope.mailFrom
  return from ? from.address.toLowerCase() : ''
}

/** Past this many cached addresses the cache starts over rather than growing without bound. */
const MAX_CACHED_INBOXES = 50_000

export interface InboxLookup {
  /** The active (not expired) inbox with this lower-cased address, or null; its counts at most SMTP_INBOX_CACHE_MS old. */
  findActiveInbox: (address: string) => Promise<ActiveInbox | null>
}

/**
 * Caches found inboxes briefly: a burst of mail to one address asks the database once. Misses are never cached,
 * so an address generated a moment ago receives mail at once; expiry is re-checked on every hit. An address that burns
 * when read is never cached either: it may be gone the next moment, and its next mail must then get 550 at RCPT, not
 * a 250 from the cache followed by a 451 (retry later) from the store.
 */
export function createInboxLookup(storage: Pick<Storage, 'findActiveInbox'>, cacheMs: number, clock: () => number = Date.now): InboxLookup {
  const cache = new Map<string, ActiveInbox & { checkedAt: number }>()
  return {
    findActiveInbox: async (address) => {
      const now = clock()
      const hit = cache.get(address)
      if (hit && now - hit.checkedAt < cacheMs && hit.expiresAt > now) return hit
      const row = await storage.findActiveInbox(address, now)
      if (!row) {
        cache.delete(address)
        return null
      }
      const found = { ...row, checkedAt: now }
      if (row.burnsOnRead) {
        cache.delete(address)
        return found
      }
      if (cache.size >= MAX_CACHED_INBOXES) cache.clear()
      cache.set(address, found)
      return found
    },
  }
}

/**
 * Decides at RCPT, before any data is sent: foreign domains are refused as relaying (we are never an
 * open relay), unknown or expired addresses with 550 5.1.1 (a session naming too many is cut off with 421),
 * recipients beyond the cap with 452, a full inbox with 452 4.2.2 and a full store with 452 4.3.1. A full inbox is
 * one at its message count or with no room left for the size the client declared (MAIL FROM … SIZE=); the counts
 * may be SMTP_INBOX_CACHE_MS old, the store worker checks them exactly at DATA. Only a recipient never issued counts
 * as a guess (per session and in the client's window): one that expired or was released gets its 550 uncounted, as
 * senders keep mailing those. A client past its window's budget gets 450 4.7.1 for every recipient of ours.
 */
export function createOnRcptTo(
  config: Config,
  deps: {
    lookup: InboxLookup
    clients: ClientLimits
    storage: StorageGuard
    refused?: (reason: RefusalReason) => void
    guesses: GuessLimit
    issued: Pick<IssuedAddresses, 'isBlocked'>
    faults: FaultState
    /** A refused or deferred recipient whose inbox exists: its delivery log entry. */
    log: (entry: DeliveryEntry) => void
    clock?: () => number
  },
) {
  const { lookup, clients, storage, refused = () => {}, guesses, issued, faults, log, clock = Date.now } = deps
  const guessLimited = () => {
    refused('guess_limited')
    return smtpError(450, '4.7.1 Too many unknown recipients from your network, try again later')
  }
  const noSuchAddress = () => smtpError(550, '5.1.1 Mailbox unavailable: no such address, or it has expired')
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
      callback(clients.unknownRecipient(session, smtpError(550, '5.7.1 Relaying denied: this server only accepts mail for its own domains')))
      return
    }
    if (session.envelope.rcptTo.length >= config.maxRecipients) {
      refused('too_many_recipients')
      callback(smtpError(452, '4.5.3 Too many recipients'))
      return
    }
    Promise.all([storage.refusal(), lookup.findActiveInbox(recipient), guesses.blocked(session)])
      .then(async ([full, found, blocked]) => {
        let inbox = found
        // The address as written first (a chosen name may hold '+'), then its base: name+tag@domain goes to name@domain.
        const { base, tag: written } = subAddress(recipient)
        let tag: string | null = null
        if (inbox === null && written !== null) {
          inbox = await lookup.findActiveInbox(base)
          tag = written || null
        }
        const fault = config.faultTags ? faultOf(tag) : null
        const declared = Number(session.envelope.mailFrom && session.envelope.mailFrom.args && (session.envelope.mailFrom.args as Record<string, string>).SIZE) || 0
        const answer = (error: SmtpReplyError, reason: DeliveryReason) => {
          if (inbox) {
            const [code, status] = [error.responseCode, error.message.split(' ', 1)[0]!]
            log({ inboxId: inbox.id, at: clock(), result: code >= 500 ? 'refused' : 'deferred', replyCode: code, enhancedStatus: status, reason, size: declared || null, tag, messageId: null })
          }
          callback(error)
        }
        if (blocked) {
          answer(guessLimited(), 'guess_limited')
          return
        }
        if (full) {
          refused('storage_full')
          answer(full as SmtpReplyError, 'storage_full')
          return
        }
        if (inbox === null) {
          if (await issued.isBlocked(base, clock()) || (written !== null && await issued.isBlocked(recipient, clock()))) {
            refused('unknown_recipient')
            callback(noSuchAddress())
          } else if (await guesses.guess(session)) {
            callback(guessLimited())
          } else {
            refused('unknown_recipient')
            callback(clients.unknownRecipient(session, noSuchAddress()))
          }
          return
        }
        if (fault?.kind === 'reject') {
          refused('fault_reject')
          answer(smtpError(550, '5.7.1 Rejected on purpose: this address has the +reject test tag'), 'fault_reject')
          return
        }
        if (fault?.kind === 'full') {
          refused('fault_full')
          answer(smtpError(452, '4.2.2 Mailbox full, try again later (the +full test tag)'), 'fault_full')
          return
        }
        if (fault?.kind === 'greylist') {
          const now = clock()
          const { firstAt } = await faults.tryAt(session, ['greylist', senderOf(session), recipient], now)
          const wait = Math.ceil((firstAt + config.faultGreylistMs - now) / 1000)
          if (wait > 0) {
            refused('fault_greylist')
            answer(smtpError(451, `4.7.1 Greylisted, try again in ${wait} seconds (the +greylist test tag)`), 'fault_greylist')
            return
          }
        }
        if (inbox.messageCount >= config.maxMessagesPerInbox || inbox.bytesUsed + declared > config.maxInboxBytes) {
          refused('mailbox_full')
          answer(smtpError(452, '4.2.2 Mailbox full, try again later'), 'mailbox_full')
          return
        }
        let accepted = acceptedInboxes.get(session.envelope)
        if (!accepted) acceptedInboxes.set(session.envelope, (accepted = new Map()))
        accepted.set(recipient, { inboxId: inbox.id, address: recipient, tag, fault })
        callback()
      })
      // A failed look-up (the database, the guess window) before any answer was given: the sender tries again later.
      .catch((error: unknown) => {
        console.error('[smtp] inbox or storage lookup failed:', error)
        refused('lookup_failed')
        callback(smtpError(451, '4.3.0 Temporary failure, please try again later'))
      })
  }
}
