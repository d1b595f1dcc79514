import type { Db, InboxRow } from '@tempbox/db'
import type { FullMessage, MessageAuth } from '@tempbox/types'
import type { Config } from '../../config.js'
import { findAttachment, listAttachments } from '../../repositories/attachment-repository.js'
import { findMessageAuth } from '../../repositories/message-auth-repository.js'
import {
  findMessage, findMessageForView, findMessagesByIds, findRawMessage, findViewBodyBytes, findViewHeaders, findViewText, findViewTextBytes,
  type MessageSummaryRow, type MessageViewRow,
} from '../../repositories/message-repository.js'
import { toMessageAuth } from '../messages/message-auth-view.js'
import { isBlankUtf8, resolveAttachmentRefBytes, spliceJsonStrings, spliceMark } from '../messages/json-bytes.js'
import { attachmentUrl, toFullMessage } from '../messages/message-view.js'
import { ByteBudgetCache } from './byte-budget-cache.js'
import { attachmentNotFound, messageNotFound } from './not-found.js'

const CONTENT_MARK = spliceMark('content')
const HTML_MARK = spliceMark('html')
const EMPTY = Buffer.alloc(0)

type Serialize = (view: FullMessage & { auth: MessageAuth | null }) => string

/**
 * One message of an inbox, read: its view (as JSON bytes, cached), its raw source and its attachments. Message views
 * are kept as the bytes a GET sends, by message id, each with the state it was built from. Reading a large message
 * costs most in turning its 256 K-character text into strings and JSON and back into bytes (about 7–12 ms); a message
 * read again, unchanged, costs its two small lookups. What of a view can change — the sender check's verdict and the
 * derivation — is read fresh each time and makes the version, so a change on any node is never served stale.
 */
export class MessageReadService {
  private readonly views: ByteBudgetCache<number, { version: string; body: Buffer }>

  constructor(
    private readonly db: Db,
    private readonly config: Config,
  ) {
    this.views = new ByteBudgetCache(config.messageViewCacheBytes, (view) => view.body.length + view.version.length)
  }

  private async messageRow(inbox: InboxRow, id: number): Promise<MessageSummaryRow> {
    const row = await findMessage(this.db, inbox.id, id)
    if (!row) throw messageNotFound()
    return row
  }

  async fullMessage(inbox: InboxRow, id: number): Promise<FullMessage> {
    return this.fullView(inbox, await this.messageRow(inbox, id))
  }

  /**
   * The message view with its sender check, as the JSON bytes a GET answers (`serialize` is the route's serializer),
   * from the cache when the message has not changed since they were made. A view made here never turns its large texts
   * into strings: they are read as UTF-8 bytes and spliced, JSON-escaped, into the serialized rest (viewBytes).
   */
  async fullMessageJson(inbox: InboxRow, id: number, serialize: Serialize): Promise<Buffer> {
    const lean = await findMessageForView(this.db, inbox.id, id)
    if (!lean) throw messageNotFound()
    const auth = toMessageAuth(await findMessageAuth(this.db, inbox.id, lean.id))
    const version = JSON.stringify([lean.derived_version, auth])
    const cached = this.views.get(lean.id)
    if (cached?.version === version) return cached.body
    const body =
      (await this.viewBytes(inbox, lean, auth, serialize)) ?? Buffer.from(serialize({ ...(await this.fullView(inbox, await this.messageRow(inbox, id))), auth }))
    this.views.set(lean.id, { version, body })
    return body
  }

  /**
   * fullView's JSON with the text and HTML as bytes, byte for byte what serializing fullView gives (the text's cut is
   * the same character; JSON escaping is JSON.stringify's). Null when a stored text is not valid UTF-8.
   */
  private async viewBytes(inbox: InboxRow, row: MessageViewRow, auth: MessageAuth | null, serialize: Serialize): Promise<Buffer | null> {
    const text = await findViewTextBytes(this.db, row.message_content_id, this.config.messageTextMaxChars)
    // plainContent's choice: the text part unless it is blank, else the text rendering of the HTML.
    const hasText = text.text !== null && !isBlankUtf8(text.text)
    // Sanitized HTML is made from HTML only, and never for HTML withheld; the rendering is shown only without a text part.
    const wantHtml = row.has_html === 1 && row.html_withheld === null
    const { safeHtml, htmlText } = await findViewBodyBytes(this.db, row.message_content_id, { safeHtml: wantHtml, htmlText: !hasText })
    const headers = await findViewHeaders(this.db, row.message_content_id)
    const attachments = await listAttachments(this.db, row.message_content_id, this.config.messageViewMaxAttachments)
    const view = await toFullMessage(
      inbox.address,
      { ...row, html_text: hasText ? null : CONTENT_MARK, safe_html: safeHtml === null ? null : HTML_MARK },
      { text: hasText ? CONTENT_MARK : null, truncated: text.truncated },
      headers,
      attachments,
    )
    const values = [{ field: 'content', mark: CONTENT_MARK, utf8: (hasText ? text.text : htmlText) ?? EMPTY }]
    if (safeHtml !== null) {
      const html = resolveAttachmentRefBytes(safeHtml, (index) => attachmentUrl(inbox.address, row.id, index))
      values.push({ field: 'html', mark: HTML_MARK, utf8: html })
    }
    return spliceJsonStrings(serialize({ ...view, auth }), values)
  }

  /** The whole view of a row: its text only up to the display limit, so a read costs the same for any size. */
  private async fullView(inbox: InboxRow, row: MessageSummaryRow): Promise<FullMessage> {
    const text = await findViewText(this.db, row.message_content_id, this.config.messageTextMaxChars)
    const headers = await findViewHeaders(this.db, row.message_content_id)
    return toFullMessage(inbox.address, row, text, headers, await listAttachments(this.db, row.message_content_id, this.config.messageViewMaxAttachments))
  }

  async fullMessagesByIds(inbox: InboxRow, ids: number[]): Promise<FullMessage[]> {
    const rows = (await findMessagesByIds(this.db, ids)).filter((r) => r.inbox_id === inbox.id)
    return Promise.all(rows.map((row) => this.fullView(inbox, row)))
  }

  async rawMessage(inbox: InboxRow, id: number): Promise<{ id: number; subject: string; raw: Buffer }> {
    const row = await findRawMessage(this.db, inbox.id, id)
    if (!row) throw messageNotFound()
    return row
  }

  async attachment(inbox: InboxRow, id: number, index: number) {
    const row = await this.messageRow(inbox, id)
    const attachment = await findAttachment(this.db, row.message_content_id, index)
    if (!attachment) throw attachmentNotFound()
    return attachment
  }

  /** A deleted message's cached view goes with it. */
  forgetView(id: number): void {
    this.views.delete(id)
  }
}
