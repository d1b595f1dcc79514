import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely'

/** Epoch milliseconds: every timestamp column is an integer so comparisons stay cheap and timezone-free. */
type Millis = number

export interface InboxTable {
  id: Generated<number>
  /** Full lower-cased address, `local@domain`. */
  address: string
  local_part: string
  domain: string
  /** Owner account when the address was generated while signed in. */
  user_id: number | null
  created_at: Millis
  expires_at: Millis
  /** Messages the inbox holds and their sizes as received, kept by triggers on `message` (quota checks). */
  message_count: Generated<number>
  bytes_used: Generated<number>
  /** Of those, the ones not read yet (`message.read_at` NULL), kept by the same triggers and one on `read_at`. */
  unread_count: Generated<number>
  /** Burns after use: 'read' (deleted when a message is first marked read), 'timer' (`expires_at` was shortened); else NULL. */
  burn: Generated<'read' | 'timer' | null>
  /** The end a burn timer shortened (turning it off gives it back); NULL when no timer shortened it. */
  unburned_expires_at: Generated<Millis | null>
}

/**
 * One message as one inbox holds it: what its listing shows. A message sent to several of our addresses has one row
 * per inbox, all pointing at the same `message_content`, which is stored once and goes with the last row pointing at it.
 */
export interface MessageTable {
  id: Generated<number>
  inbox_id: number
  message_content_id: number
  from_name: string
  from_address: string
  subject: string
  /** Date header (epoch ms) when present and valid. */
  sent_at: Millis | null
  received_at: Millis
  /** Length of the source as received: what the message counts against its inbox's quota. */
  size: number
  attachment_count: Generated<number>
  /** When this inbox's reader first opened the message (epoch ms); NULL while unread. Per inbox, not per content. */
  read_at: Generated<Millis | null>
  /** The +tag of the address it was delivered to (`name+tag@…`, without '+'); NULL when none. */
  rcpt_tag: Generated<string | null>
}

/** What a message is, the same for every inbox it went to, stored once (see MessageTable). */
export interface MessageContentTable {
  id: Generated<number>
  /** JSON array of `{name, address}` as written in the To/Cc headers. */
  recipients: string
  /** JSON array of `[name, value]` header lines, in order. */
  headers: string
  text: string | null
  html: string | null
  /**
   * The message as received over SMTP: all of it, or only its header block when `raw_body_is_text` (the body is then
   * `text` with CRLF line ends). Read it through `fullSource` (message-source.ts).
   */
  raw: Buffer
  raw_body_is_text: Generated<number>
  /**
   * Derived once from the message (@tempbox/mail-derive), never per request. `derived_version` is the DERIVED_VERSION
   * that produced the columns below; NULL (a row stored before they existed) or older means "derive at next read".
   */
  derived_version: number | null
  /** First 100 characters of the content, whitespace collapsed. */
  preview: Generated<string>
  /** Text rendering of the HTML when the message has no text part (capped). */
  html_text: string | null
  /** JSON array of one-time codes, most likely first. */
  codes: Generated<string>
  /** JSON array of `{url, label}` verification links. */
  links: Generated<string>
  /** Sanitized HTML with attachment placeholders (resolveAttachmentRefs); NULL when there is none or it is withheld. */
  safe_html: string | null
  has_remote_content: Generated<number>
  /** 'too_large' | 'unrenderable' when the HTML is not shown (the reader gets the text and a note); else NULL. */
  html_withheld: string | null
  // `text_head`, still in the table, is always NULL: heads live in message_text_head (see its migration).
}

/**
 * The first characters of a text part too long to send whole: the API fills the row at a long text's first read, and
 * a view then never reads `text` itself. In a table of its own so it is reached without walking `text` and `raw`.
 */
export interface MessageTextHeadTable {
  message_content_id: number
  text: string
}

/**
 * A message content's search copy (storage/search-text.ts): subject, sender and text folded for search and cut at
 * SEARCH_TEXT_MAX_CHARS, written with the content. A table of its own so a search scan never walks `text` and `raw`.
 */
export interface MessageSearchTable {
  message_content_id: number
  subject: string
  from_name: string
  from_address: string
  body: string
}

/** Who really sent a message's content: SPF, DKIM, DMARC and ARC as mail-ingest checked them (see the migration). */
export interface MessageAuthTable {
  message_content_id: number
  status: 'checking' | 'pass' | 'fail' | 'none' | 'unknown'
  /** JSON of the per-mechanism results (`StoredMessageAuthDetails` in mail-ingest, `MessageAuth` in @tempbox/types). */
  details: string | null
  /** The Authentication-Results header value the check produced. */
  authentication_results: string | null
  checked_at: Millis | null
}

export interface AttachmentTable {
  id: Generated<number>
  message_content_id: number
  /** 0-based position within the message, used in download URLs. */
  position: number
  filename: string
  content_type: string
  size: number
  content_id: string | null
  is_inline: number
  content: Buffer
}

export interface UserTable {
  id: Generated<number>
  email: string
  username: string | null
  password_hash: string
  role: ColumnType<string, string | undefined, string>
  created_at: Millis
  /** Tokens signed with an older version are refused: raised on password change and "sign out everywhere". */
  token_version: Generated<number>
}

/** A signed-in browser: its refresh cookie's secret (as SHA-256, hex) and the account's token version at sign-in. */
export interface AuthSessionTable {
  id: string
  user_id: number
  secret_hash: string
  token_version: number
  created_at: Millis
  expires_at: Millis
}

/** Facts that, once recorded, stay true (e.g. `owner_setup_done`): a row's presence is the fact. */
export interface SiteFactTable {
  name: string
  created_at: Millis
}

export interface ContactMessageTable {
  id: Generated<number>
  name: string
  email: string
  subject: string
  message: string
  status: ColumnType<string, string | undefined, string>
  submitted_at: Millis
}

/** Aggregate page views: one row per day, path and country; no per-visit rows. */
export interface PageViewDailyTable {
  day: string
  path: string
  country: string
  views: number
}

/** Unique visitors per day. `visitor_hash` is HMAC(daily salt, ip + user agent); the salt lives only in memory. */
export interface VisitorDailyTable {
  day: string
  visitor_hash: string
  country: string
  last_seen_at: Millis
}

/** Addresses created per UTC day, kept by a trigger on inbox (inboxes themselves are deleted after 24 hours). */
export interface InboxCreatedDailyTable {
  day: string
  count: number
}

export interface ShortLinkTable {
  id: Generated<number>
  code: string
  target_url: string
  clicks: Generated<number>
  created_at: Millis
  /** SHA-256 (hex) of the secret only the creating browser holds; null for links from before secrets. */
  secret_hash: string | null
}

/** When each background service last said it was up (mail-ingest writes it; the API's readiness check reads it). */
export interface ServiceHeartbeatTable {
  service: string
  beat_at: Millis
  /** Past this time without a newer beat the service counts as down (three missed beats, not one slow one). */
  stale_at: Millis
}

/** One webhook per inbox: each new message is POSTed to `url`, signed with `secret`. Goes with its inbox. */
export interface WebhookTable {
  id: Generated<number>
  inbox_id: number
  url: string
  /** HMAC-SHA256 key for the signature header; shown to the owner once, when set. */
  secret: string
  created_at: Millis
  /** Deliveries of this webhook in state `pending` (kept by triggers; the per-inbox cap compares against it). */
  pending: Generated<number>
}

export type WebhookDeliveryState = 'pending' | 'delivered' | 'failed' | 'dropped'

/** One message to one webhook; queued by a trigger in the transaction that stores the message. */
export interface WebhookDeliveryTable {
  id: Generated<number>
  /** The id receivers see (and drop duplicates by): the same on every attempt. */
  delivery_id: string
  webhook_id: number
  message_id: number
  state: ColumnType<WebhookDeliveryState, WebhookDeliveryState, WebhookDeliveryState>
  attempts: Generated<number>
  created_at: Millis
  next_attempt_at: Millis
  last_attempt_at: Millis | null
  /** HTTP status of the last attempt; null when it got no answer (timeout, refused target, connection error). */
  last_status_code: number | null
  last_error: string | null
}

/** The single row of queue-wide counters and the caps the enqueue trigger applies (written by the API at start). */
export interface WebhookQueueTable {
  id: number
  pending: Generated<number>
  dropped: Generated<number>
  max_pending: number
  max_pending_per_inbox: number
}

/** An address once handed out, by its HMAC (issued-addresses.ts): it is not issued again before `block_until`. */
export interface IssuedAddressTable {
  hash: Buffer
  issued_at: Millis
  block_until: Millis
}

/** The one row (id 1) holding the HMAC secret of `issued_address`, made by its migration. */
export interface IssuedAddressKeyTable {
  id: number
  secret: Buffer
}

export type DeliveryResult = 'accepted' | 'refused' | 'deferred'

/** One SMTP transaction that named an inbox (delivery-log.ts): the newest DELIVERY_LOG_ENTRIES per inbox. No client IP. */
export interface DeliveryLogTable {
  id: Generated<number>
  inbox_id: number
  at: Millis
  /** 'deferred': a 4xx the sender retries; 'refused': a 5xx. */
  result: DeliveryResult
  reply_code: number
  enhanced_status: string
  /** A snake_case code ('accepted', 'mailbox_full', 'fault_greylist', …: DeliveryReason in delivery-log.ts). */
  reason: string
  size: number | null
  tag: string | null
  message_id: number | null
}

export interface Database {
  inbox: InboxTable
  message: MessageTable
  message_content: MessageContentTable
  message_auth: MessageAuthTable
  message_text_head: MessageTextHeadTable
  message_search: MessageSearchTable
  attachment: AttachmentTable
  user: UserTable
  auth_session: AuthSessionTable
  contact_message: ContactMessageTable
  page_view_daily: PageViewDailyTable
  visitor_daily: VisitorDailyTable
  inbox_created_daily: InboxCreatedDailyTable
  short_link: ShortLinkTable
  site_fact: SiteFactTable
  service_heartbeat: ServiceHeartbeatTable
  webhook: WebhookTable
  webhook_delivery: WebhookDeliveryTable
  webhook_queue: WebhookQueueTable
  issued_address: IssuedAddressTable
  issued_address_key: IssuedAddressKeyTable
  delivery_log: DeliveryLogTable
}

export type InboxRow = Selectable<InboxTable>
export type NewInbox = Insertable<InboxTable>
export type MessageRow = Selectable<MessageTable>
export type NewMessage = Insertable<MessageTable>
export type MessageContentRow = Selectable<MessageContentTable>
export type NewMessageContent = Insertable<MessageContentTable>
export type MessageAuthRow = Selectable<MessageAuthTable>
export type AttachmentRow = Selectable<AttachmentTable>
export type NewAttachment = Insertable<AttachmentTable>
export type UserRow = Selectable<UserTable>
export type AuthSessionRow = Selectable<AuthSessionTable>
export type NewUser = Insertable<UserTable>
export type UserUpdate = Updateable<UserTable>
export type ContactMessageRow = Selectable<ContactMessageTable>
export type NewContactMessage = Insertable<ContactMessageTable>
export type ShortLinkRow = Selectable<ShortLinkTable>
export type NewShortLink = Insertable<ShortLinkTable>
export type WebhookRow = Selectable<WebhookTable>
export type WebhookDeliveryRow = Selectable<WebhookDeliveryTable>
