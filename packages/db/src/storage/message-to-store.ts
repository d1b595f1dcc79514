import type { SearchCopy } from './search-text.js'
import type { StoredSource } from '../message-source.js'

/**
 * A received message as the store takes it: parsed and derived by mail-ingest (its ParsedMessage and derivation fit
 * this shape), not yet stored. Its content is stored once, with a listing row for each of `inboxIds`.
 */
export interface MessageToStore {
  /** Distinct inboxes the message goes to. */
  inboxIds: number[]
  parsed: {
    from: { name: string; address: string }
    recipients: { name: string; address: string }[]
    subject: string
    /** Bytes when read straight from the body: UTF-8, stored as TEXT all the same. */
    text: string | Buffer | null
    /** Bytes when handed over long (mail-ingest's parse worker moves them rather than clone a string): UTF-8, stored as TEXT. */
    html: string | Buffer | null
    sentAt: number | null
    headers: [string, string][]
    attachments: AttachmentToStore[]
  }
  /** The bytes received after DATA, as they are stored (toStoredSource: the body may be left to `parsed.text`). */
  source: StoredSource
  receivedAt: number
  /** Preview, codes, links, text of HTML, sanitized HTML (mail-derive's derivation, without its failures). */
  derived: {
    version: number
    preview: string
    htmlText: string | null
    /** Each code with where it came from (mail-derive's CodeDetail); older rows hold bare strings. */
    codes: unknown[]
    links: unknown[]
    safeHtml: string | null
    hasRemoteContent: boolean
    htmlWithheld: string | null
  }
  /** Its search copy, folded in mail-ingest's parse worker (search-text.ts); a writer folds it when absent. */
  search?: SearchCopy
  /** Set when the sender check is on: the message is stored as `checking` and checked after the commit. */
  envelope?: unknown
  /**
   * Per inbox (in `inboxIds`' order): the +tag it was sent to and the delivery log's reason. When set, each listing row
   * gets its `rcpt_tag` and the inbox an `accepted` delivery_log entry, in the message's own commit.
   */
  deliveries?: AcceptedDelivery[]
}

export interface AcceptedDelivery {
  tag: string | null
  reason: 'accepted' | 'fault_slow'
}

export interface AttachmentToStore {
  filename: string
  contentType: string
  size: number
  /** Content-ID without angle brackets, as `cid:` URLs in the HTML refer to it. */
  contentId: string | null
  isInline: boolean
  content: Buffer
}

/** Writes messages and their attachments in ONE transaction: all of them are committed, or none. Gives their content ids. */
export type WriteMessages = (messages: MessageToStore[]) => Promise<number[]>

/** What the writer enforces: per-inbox quotas and the store's size. */
export interface WriterLimits {
  databasePath: string
  /** 0: no cap but the disk's. */
  maxDatabaseBytes: number
  minFreeDiskBytes: number
  maxMessagesPerInbox: number
  maxInboxBytes: number
  /**
   * Characters of a text part a message view shows (the api's MESSAGE_TEXT_MAX_CHARS): a longer text's head is
   * stored with it (see textHeadOf); 0 leaves that to the view's first read.
   */
  textHeadChars: number
  /** Delivery log entries each inbox keeps (DELIVERY_LOG_ENTRIES); absent: DEFAULT_DELIVERY_LOG_ENTRIES. */
  deliveryLogEntries?: number
}

export const NO_LIMITS: WriterLimits = {
  databasePath: ':memory:', maxDatabaseBytes: 0, minFreeDiskBytes: 0, maxMessagesPerInbox: Infinity, maxInboxBytes: Infinity, textHeadChars: 0,
}

/**
 * Why a message was not stored when it is the sender's to retry or give up: every inbox it goes to is full
 * (`mailbox_full`), some of them are (`some_mailboxes_full`), or the store is (`storage_full`).
 */
export type RefusalKind = 'mailbox_full' | 'some_mailboxes_full' | 'storage_full'

export class StoreRefusal extends Error {
  constructor(readonly kind: RefusalKind, message: string) {
    super(message)
  }
}

/** The refusal an error from the writer stands for, if any (SQLITE_FULL: the file reached max_page_count or the disk). */
export function refusalKindOf(error: unknown): RefusalKind | null {
  if (error instanceof StoreRefusal) return error.kind
  if ((error as { code?: unknown } | null)?.code === 'SQLITE_FULL') return 'storage_full'
  return null
}
