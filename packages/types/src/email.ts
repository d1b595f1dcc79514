import { Type, type Static } from 'typebox'
import { PREVIEW_CHARS } from './constants.js'
import { MessageAuth } from './message-auth.js'
import { BurnFields, BurnMode } from './burn.js'
import { CodeDetail } from './codes.js'
import { NearMisses } from './deliveries.js'

export const GenerateEmailBody = Type.Object(
  {
    localPart: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Desired local part; random when omitted.' })),
    domain: Type.Optional(Type.String({ minLength: 1, maxLength: 253, description: 'One of the served domains; the first when omitted.' })),
    ...BurnFields,
  },
  { additionalProperties: false },
)
export type GenerateEmailBody = Static<typeof GenerateEmailBody>

export const GenerateEmailResponse = Type.Object({
  email: Type.String({ description: 'The new address.' }),
  expiresAt: Type.String({ format: 'date-time', description: 'When the address and its mail are deleted.' }),
  burn: Type.Optional(BurnMode),
})
export type GenerateEmailResponse = Static<typeof GenerateEmailResponse>

/** One-time codes and verification / sign-in links found in a message. */
export const VerificationLink = Type.Object({
  url: Type.String(),
  label: Type.String({ description: 'The link text, or a short description when the link has none.' }),
})
export type VerificationLink = Static<typeof VerificationLink>

export const Verification = Type.Object({
  codes: Type.Array(Type.String(), { description: 'One-time codes, most likely first.' }),
  codeDetails: Type.Array(CodeDetail, { description: 'Where each of `codes` came from and why it was taken: same order and length.' }),
  links: Type.Array(VerificationLink, { description: 'Verification, confirmation, sign-in or magic links.' }),
})
export type Verification = Static<typeof Verification>

/** Longest `limit` a client may ask for one page of an inbox listing. */
export const MAX_INBOX_PAGE = 200
/** Longest search query (`q`) in characters, and most terms in one. */
export const MAX_SEARCH_CHARS = 200
export const MAX_SEARCH_TERMS = 12
/** Most messages one wait may ask for (`count`), and longest wait filter value. */
export const MAX_WAIT_COUNT = 50
export const MAX_WAIT_FILTER_CHARS = 200
/** Messages per page when the client does not say. */
export const DEFAULT_INBOX_PAGE = 50

/**
 * A message as the inbox lists it: enough to show the row and its codes, never its body. The whole message is at
 * `GET /api/email/{address}/messages/{id}`.
 */
export const MessageSummary = Type.Object({
  id: Type.String({ description: 'Message id; larger ids arrived later.' }),
  subject: Type.String({ description: 'The subject (at most 300 characters; the full one is in the message).' }),
  sender: Type.String({ description: 'Display form of the sender: "Name <address>" or the address alone.' }),
  fromName: Type.String({ description: 'Sender display name; empty when the From header has none.' }),
  fromAddress: Type.String(),
  preview: Type.String({ description: `The first ${PREVIEW_CHARS} characters of the plain text, whitespace collapsed.` }),
  receivedAt: Type.String({ format: 'date-time' }),
  size: Type.Integer({ minimum: 0, description: 'Size of the raw message in bytes.' }),
  hasHtml: Type.Boolean(),
  attachmentCount: Type.Integer({ minimum: 0 }),
  verification: Verification,
  read: Type.Boolean({
    description: 'False until the message is marked read (`PATCH …/messages/{id}` with `{"read": true}`) in this inbox. Reading it through the API does not mark it.',
  }),
})
export type MessageSummary = Static<typeof MessageSummary>

export const InboxQuery = Type.Object({
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: MAX_INBOX_PAGE, default: DEFAULT_INBOX_PAGE, description: `Messages per page (1–${MAX_INBOX_PAGE}).` }),
  ),
  before: Type.Optional(
    Type.String({
      pattern: '^[0-9]{1,15}$',
      description: 'Cursor: only messages older than this message id (pass the previous page\'s `nextBefore`).',
    }),
  ),
  q: Type.Optional(
    Type.String({
      maxLength: 1000,
      description:
        `Search (at most ${MAX_SEARCH_CHARS} characters, ${MAX_SEARCH_TERMS} terms): free words match subject, sender or text; ` +
        '`from:x`, `subject:x`, `to:+tag` (sent to that +tag of the address), `has:attachment`, `has:code`, `before:YYYY-MM-DD`, `after:YYYY-MM-DD` (received before that ' +
        'day / on or after it, UTC), `"quoted phrases"`, and `-term` to exclude. Terms all apply (AND); matching is a ' +
        'case-insensitive substring (any letters, compatibility forms alike: NFKC), within the first SEARCH_TEXT_MAX_CHARS ' +
        '(64 K by default) characters of subject, sender and text. `is:unread` / `is:read` keep messages not yet (or already) marked read. ' +
        '`total` and paging then count matching messages only.',
    }),
  ),
  refresh: Type.Optional(Type.String({ description: 'Accepted for compatibility; every read is fresh.' })),
  t: Type.Optional(Type.String({ description: 'Cache buster; ignored.' })),
})
export type InboxQuery = Static<typeof InboxQuery>

/** One page of an inbox, newest first. */
export const InboxResponse = Type.Object({
  messages: Type.Array(MessageSummary, { description: 'Newest first.' }),
  total: Type.Integer({ minimum: 0, description: 'Messages in the whole inbox.' }),
  unread: Type.Integer({ minimum: 0, description: 'Unread messages in the whole inbox (with `q` too: it is the inbox\'s count, not the matches\').' }),
  nextBefore: Type.Union([Type.String(), Type.Null()], {
    description: 'Pass as `before` to get the next (older) page; null when this page reaches the oldest message.',
  }),
  searchCut: Type.Optional(
    Type.Boolean({
      description:
        'With `q` only: true when the search ran out of time (SEARCH_TIME_BUDGET_MS) before it had looked through the whole ' +
        'inbox. The page and `total` then hold what was found so far; `nextBefore` goes on from where it stopped.',
    }),
  ),
})
export type InboxResponse = Static<typeof InboxResponse>

export const MailHeader = Type.Object({
  name: Type.String(),
  value: Type.String({ description: 'At most 4,096 characters (the header display limit); `truncated` says when it goes on.' }),
  truncated: Type.Optional(
    Type.Boolean({ description: 'True when `value` is only the beginning of the header: the .eml download has all of it.' }),
  ),
})
export type MailHeader = Static<typeof MailHeader>

export const MailAddress = Type.Object({ name: Type.String(), address: Type.String() })
export type MailAddress = Static<typeof MailAddress>

export const AttachmentInfo = Type.Object({
  index: Type.Integer({ minimum: 0, description: 'Position in the message; download at `…/attachments/{index}`.' }),
  filename: Type.String(),
  contentType: Type.String(),
  size: Type.Integer({ minimum: 0, description: 'Bytes.' }),
  contentId: Type.Union([Type.String(), Type.Null()], { description: 'Content-ID without angle brackets (for cid: references).' }),
  inline: Type.Boolean(),
})
export type AttachmentInfo = Static<typeof AttachmentInfo>

export const FullMessage = Type.Object({
  id: Type.String(),
  subject: Type.String(),
  sender: Type.String(),
  fromName: Type.String(),
  fromAddress: Type.String(),
  to: Type.Array(MailAddress, { description: 'Recipients from the To and Cc headers.' }),
  date: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'The Date header, when present and valid.' }),
  receivedAt: Type.String({ format: 'date-time' }),
  size: Type.Integer({ minimum: 0, description: 'Size of the raw message in bytes.' }),
  hasTextPart: Type.Boolean({ description: 'True when the message has a (non-blank) text part: `content` is then that part.' }),
  content: Type.String({
    description:
      'Plain text: the text part, or a rendering of the HTML. At most the server\'s display limit (MESSAGE_TEXT_MAX_CHARS, ' +
      '256 K characters by default); `contentTruncated` says when the text goes on. The whole message is the .eml download.',
  }),
  contentTruncated: Type.Boolean({ description: 'True when `content` is only the beginning of the text: download the .eml for all of it.' }),
  html: Type.Union([Type.String(), Type.Null()], {
    description:
      'Sanitized HTML: no script, handlers, forms or frames; links open in a new tab; remote images and resources are ' +
      'moved to `data-remote-src` / `data-remote-srcset` / `data-remote-style` / `data-remote-background` attributes so ' +
      'nothing loads until the client opts in; `cid:` references point at the attachment download URL.',
  }),
  hasRemoteContent: Type.Boolean({ description: 'True when the HTML referenced remote images or resources (blocked).' }),
  htmlWithheld: Type.Union([Type.Literal('too_large'), Type.Literal('unrenderable'), Type.Null()], {
    description:
      'Set when the message has HTML that is not shown (`html` is then null): `too_large` (longer than the display limit) ' +
      'or `unrenderable` (nested too deep, or sanitizing failed). Show `content` instead, and offer the .eml download.',
  }),
  headers: Type.Array(MailHeader, { description: 'Header lines in order: the first 200 (see `headersTruncated`).' }),
  headersTruncated: Type.Optional(
    Type.Boolean({
      description:
        'True when the message has more header lines than `headers` lists (200). Always present on `GET …/messages/{id}`; ' +
        'the .eml download has every line whole.',
    }),
  ),
  attachments: Type.Array(AttachmentInfo, {
    description:
      'The first attachments by position: at most the server\'s display limit (MESSAGE_VIEW_MAX_ATTACHMENTS, 100 by ' +
      'default); `attachmentsTruncated` says when more follow. Every attachment downloads at `…/attachments/{index}`, ' +
      'listed or not (indexes run from 0 to `attachmentCount` − 1), and `cid:` references in `html` point at any of them.',
  }),
  attachmentCount: Type.Optional(
    Type.Integer({ minimum: 0, description: 'Attachments the message has, listed or not. Always present on `GET …/messages/{id}`.' }),
  ),
  attachmentsTruncated: Type.Optional(
    Type.Boolean({
      description:
        'True when the message has more attachments than `attachments` lists. Always present on `GET …/messages/{id}`; ' +
        'the .eml download holds them all, and each downloads by its index.',
    }),
  ),
  verification: Verification,
  auth: Type.Optional(
    Type.Union([MessageAuth, Type.Null()], {
      description:
        'Who really sent it (SPF, DKIM, DMARC, ARC). Always present on `GET …/messages/{id}`; null when the message was not ' +
        'checked (older mail, or the check is turned off).',
    }),
  ),
})
export type FullMessage = Static<typeof FullMessage>

/**
 * Long poll answer. 200 with `message` when a message arrived; on timeout also 200, with `message: null`
 * (a body rather than 204 keeps clients that always parse JSON simple).
 */
export const WaitResponse = Type.Object({
  message: Type.Union([FullMessage, Type.Null()], { description: 'The first matching message (the oldest of `messages`).' }),
  messages: Type.Array(FullMessage, { description: 'All `count` matching messages, oldest first; empty on timeout.' }),
  timedOut: Type.Boolean(),
  nearMisses: Type.Optional(NearMisses),
})
export type WaitResponse = Static<typeof WaitResponse>

export const WaitQuery = Type.Object({
  timeout: Type.Optional(Type.Integer({ minimum: 0, maximum: 60, default: 30, description: 'Seconds to wait (0–60).' })),
  since: Type.Optional(
    Type.String({ pattern: '^[0-9]{1,15}$', description: 'Only messages with a larger id than this count; default: messages arriving after the call.' }),
  ),
  from: Type.Optional(
    Type.String({ minLength: 1, maxLength: MAX_WAIT_FILTER_CHARS, description: 'Only messages whose sender (name or address) contains this (case-insensitive).' }),
  ),
  subject: Type.Optional(
    Type.String({ minLength: 1, maxLength: MAX_WAIT_FILTER_CHARS, description: 'Only messages whose subject contains this (case-insensitive).' }),
  ),
  contains: Type.Optional(
    Type.String({ minLength: 1, maxLength: MAX_WAIT_FILTER_CHARS, description: 'Only messages whose text contains this (case-insensitive).' }),
  ),
  count: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: MAX_WAIT_COUNT,
      default: 1,
      description: `Answer once this many matching messages are there (1–${MAX_WAIT_COUNT}), all of them in \`messages\`.`,
    }),
  ),
})
export type WaitQuery = Static<typeof WaitQuery>

export const MessageReadBody = Type.Object(
  { read: Type.Boolean({ description: 'true marks the message read in this inbox, false unread again.' }) },
  { additionalProperties: false },
)
export type MessageReadBody = Static<typeof MessageReadBody>

export const MessageReadState = Type.Object({
  id: Type.String(),
  read: Type.Boolean(),
  unread: Type.Integer({ minimum: 0, description: 'Unread messages left in the inbox.' }),
  burned: Type.Optional(
    Type.Boolean({ description: 'True when this read burned the address (`burnAfterRead`): it and its mail are now deleted.' }),
  ),
})
export type MessageReadState = Static<typeof MessageReadState>

export const DomainsResponse = Type.Object({ domains: Type.Array(Type.String()) })
export type DomainsResponse = Static<typeof DomainsResponse>

/**
 * Server-Sent Events on `GET /api/email/{address}/events`:
 * - `event: ready`   data `{address, expiresAt}` once the stream is open;
 * - `event: message` data `MessageEvent` for each new message (id: the message id);
 * - `event: deleted` data `{id}` when a message is deleted;
 * - `event: expired` data `{address}` when the address expires (the stream then ends);
 * - comment lines (`: ping`) every 15 s as a heartbeat.
 */
export const MessageEvent = Type.Object({ message: MessageSummary })
export type MessageEvent = Static<typeof MessageEvent>

export const ReadyEvent = Type.Object({ address: Type.String(), expiresAt: Type.String({ format: 'date-time' }) })
export type ReadyEvent = Static<typeof ReadyEvent>

export const DeletedEvent = Type.Object({ id: Type.String() })
export type DeletedEvent = Static<typeof DeletedEvent>

export const ExpiredEvent = Type.Object({ address: Type.String() })
export type ExpiredEvent = Static<typeof ExpiredEvent>

export type EmailStreamEventName = 'ready' | 'message' | 'deleted' | 'expired'
