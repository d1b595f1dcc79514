import { findMatchesAfter, openIssuedAddresses, searchInboxPage, type Db, type InboxRow, type IssuedAddresses, type MessageCondition } from '@tempbox/db'
import {
  DEFAULT_INBOX_PAGE,
  type FullMessage,
  type GenerateEmailResponse,
  type InboxResponse,
  type MessageAuth,
  type MessageReadState,
  type MessageSummary,
  type SavedAddress,
} from '@tempbox/types'
import type { Config } from '../../config.js'
import { AppError } from '../../errors.js'
import { assignInboxToUser, deleteExpiredInboxes, deleteInbox, findInboxByAddress } from '../../repositories/inbox-repository.js'
import { insertIssuedInbox } from '../../repositories/issued-inbox-repository.js'
import {
  deleteMessage,
  findFirstMessageAfter,
  findMessage,
  findMessageForView,
  findViewBodyBytes,
  findViewTextBytes,
  type MessageViewRow,
  findMessagesByIds,
  findViewHeaders,
  findViewText,
  findRawMessage,
  countInboxMessages,
  countUnreadMessages,
  findListRowsByIds,
  setMessageRead,
  listInboxPage,
  listMessagesAfter,
  maxInboxMessageId,
  type ListRow,
  type MessageSummaryRow,
} from '../../repositories/message-repository.js'
import { findAttachment, listAttachments } from '../../repositories/attachment-repository.js'
import { deleteIfBurnsOnRead } from '../../repositories/burn-repository.js'
import { burnOf, type Burn } from './address-lifetime.js'
import { parseAddress, randomLocalPart, validateLocalPart } from './address.js'
import type { AddressLimits } from '../../shared-state/shared-state.js'
import { attachmentUrl, buildSummary, fallbackSummary, listRowOf, toFullMessage } from '../messages/message-view.js'
import { isBlankUtf8, resolveAttachmentRefBytes, spliceJsonStrings, spliceMark } from '../messages/json-bytes.js'
import { Listing, ListingCache } from './inbox-listing.js'
import { ByteBudgetCache } from './byte-budget-cache.js'
import { findMessageAuth } from '../../repositories/message-auth-repository.js'
import { toMessageAuth } from '../messages/message-auth-view.js'
import type { MailWatcher } from '../messages/mail-watcher.js'
import type { Peers } from '../../shared-state/shared-state.js'

const INBOX_NOT_FOUND = 'This address does not exist or has expired. Generate a new one.'
const ADDRESS_RETIRED =
  'was used before and is retired for good, so mail meant for its earlier owner can never reach someone else. Choose another name.'
const MAX_CACHED_INBOXES = 10_000
/** Messages whose view failed are logged once each; the memory of which ones is bounded like the other caches. */
const MAX_LOGGED_FAILURES = 10_000
const CONTENT_MARK = spliceMark('content')
const HTML_MARK = spliceMark('html')
const EMPTY = Buffer.alloc(0)

export interface CreateInboxInput {
  /** Client IP, used only for the in-memory per-IP limits. */
  ip: string
  localPart?: string
  domain?: string
  /** Owner account when the request was signed in; null for anonymous addresses. */
  userId?: number | null
  burnAfterRead?: boolean
  burnAfterMinutes?: number
}

/**
 * The temporary-email rules: creating addresses, reading inboxes and messages, expiry.
 * Inbox first pages are cached as ready JSON per inbox (polling tabs ask far more often than mail arrives), within a
 * byte budget; older pages are read on demand. The watcher drops an inbox's entry whenever a message for it is
 * committed, and every read first brings the watcher up to date, so a cached page is never older than the latest commit.
 * A deletion, a read-state change and an update of an inbox row leave no new message for the watcher to read: on
 * PostgreSQL every node hears of them from the storage (through the watcher: the changing transaction NOTIFYs at
 * commit, so another node drops its copy within the notification's delivery, a few ms); on SQLite other API processes
 * hear of deletions and read state from `peers`, and of inbox updates from `data_version` (any commit clears the rows).
 */
export class InboxService {
  private readonly inboxByAddress = new Map<string, InboxRow>()
  /** Bumped whenever address rows are dropped, so a row read while one changed is not kept (see getInbox). */
  private rowDrops = 0
  private readonly firstPages: ListingCache
  /**
   * Message views as the bytes a GET sends, by message id, each with the state it was built from. Reading a large
   * message costs most in turning its 256 K-character text into strings and JSON and back into bytes (about 7–12 ms);
   * a message read again, unchanged, costs its two small lookups. What of a view can change — the sender check's
   * verdict and the derivation — is read fresh each time and makes the version, so a change on any node (or in any
   * process) is never served stale.
   */
  private readonly views: ByteBudgetCache<number, { version: string; body: Buffer }>
  /** Bumped on every inbox change, so a listing built while a message arrived is not cached. */
  private changes = 0
  private readonly loggedFailures = new Set<number>()
  /** Every address ever issued, by HMAC: none is issued twice (issue 26). */
  private readonly issued: IssuedAddresses

  constructor(
    private readonly db: Db,
    private readonly config: Config,
    readonly watcher: MailWatcher,
    readonly limiter: AddressLimits,
    private readonly peers: Peers,
    private readonly logError: (message: string, error: unknown) => void = (message, error) => console.error(message, error),
  ) {
    this.issued = openIssuedAddresses(db)
    this.firstPages = new ListingCache(config.listingCacheBytes)
    this.views = new ByteBudgetCache(config.messageViewCacheBytes, (view) => view.body.length + view.version.length)
    // Inboxes can also disappear by other paths (an account deleted with its addresses): after any commit the
    // address cache is rebuilt from the database. Polls between commits still cost no query.
    watcher.onAnyCommit(() => this.dropRows())
    watcher.onInboxChange((inboxId) => {
      this.changes++
      this.firstPages.delete(inboxId)
    })
    // Deleted by any process or node (on PostgreSQL the storage tells every node): no cached row may serve it. The
    // address cache is keyed by address, so it is rebuilt, as after any commit.
    watcher.onInboxGone((inboxId) => {
      this.dropRows()
      this.firstPages.delete(inboxId)
    })
    // Its owner, burn mode or expiry changed on another node (PostgreSQL): the row is read again.
    watcher.onInboxUpdated(() => this.dropRows())
    watcher.onResync(() => {
      this.changes++
      this.dropRows()
      this.firstPages.clear()
    })
    peers.onMessageDeleted((inboxId, id) => this.messageGone(inboxId, id))
    peers.onReadStateChanged((inboxId) => this.readStateChanged(inboxId))
  }

  domains(): readonly string[] {
    return this.config.mailDomains
  }

  async createInbox(input: CreateInboxInput): Promise<GenerateEmailResponse> {
    const domain = (input.domain ?? this.config.mailDomains[0]!).trim().toLowerCase()
    if (!this.config.mailDomains.includes(domain)) {
      throw new AppError('domain_not_served', `We don't receive mail for "${domain}". Choose one of: ${this.config.mailDomains.join(', ')}.`, {
        domain: 'Choose one of the listed domains.',
      })
    }
    const chosen = input.localPart !== undefined ? validateLocalPart(input.localPart) : null
    const burn = burnOf(input)
    const now = Date.now()
    // A timer is an earlier expiry: the limiter, the sweep and mail-ingest's refusal all follow expires_at already.
    const expiresAt = now + (burn.minutes === null ? this.config.addressTtlMs : burn.minutes * 60_000)
    return this.insertNew(input, chosen, domain, now, expiresAt, burn)
  }

  /**
   * Counts `address` against the client's limits before its insert, so concurrent requests (in any API process) cannot
   * all pass the check; `made` says whether the insert made it. One not made counts for nothing.
   */
  private async reserved<T>(ip: string, address: string, expiresAt: number, now: number, insert: () => Promise<T>, made: (result: T) => boolean): Promise<T> {
    await this.limiter.reserve(ip, address, expiresAt, now)
    let result: T
    try {
      result = await insert()
    } catch (err) {
      await this.unreserve(ip, address, now)
      throw err
    }
    if (!made(result)) await this.unreserve(ip, address, now)
    return result
  }

  private async unreserve(ip: string, address: string, now: number): Promise<void> {
    try {
      await this.limiter.release(ip, address, now)
    } catch {
      // The client is held to a stricter limit, not a looser one; the insert's own outcome is the one to report.
    }
  }

  private async insertNew(
    input: CreateInboxInput,
    chosen: string | null,
    domain: string,
    now: number,
    expiresAt: number,
    burn: Burn,
  ): Promise<GenerateEmailResponse> {
    // A random name collides (with a live or a retired one) with probability ~n/2^60; a few retries make a clash a non-event.
    // The block runs from the latest end the address could be given (a saved one's), so it never ends while it lives.
    const blockUntil = Math.max(expiresAt, now + this.config.savedAddressMaxMs) + this.config.reuseBlockMs
    for (let attempt = 0; attempt < 5; attempt++) {
      const localPart = chosen ?? randomLocalPart()
      const address = `${localPart}@${domain}`
      const values = { address, localPart, domain, userId: input.userId ?? null, createdAt: now, expiresAt, burn: burn.mode }
      const hash = await this.issued.hash(address)
      const insert = () => insertIssuedInbox(this.db, values, { hash, blockUntil })
      const row = await this.reserved(input.ip, address, expiresAt, now, insert, (r) => r !== 'retired' && r !== 'taken')
      if (row === 'retired') {
        if (chosen) throw new AppError('address_retired', `The address ${address} ${ADDRESS_RETIRED}`, { localPart: 'This name was used before.' })
        continue
      }
      if (row !== 'taken') return { email: address, expiresAt: new Date(expiresAt).toISOString(), burn: burn.mode }
      if (chosen) {
        // An expired address the sweep has not removed yet goes now; the retry then finds it retired (or, its block over, free).
        const existing = await findInboxByAddress(this.db, address)
        if (existing && existing.expires_at <= now) {
          await deleteExpiredInboxes(this.db, now)
          this.forgetInbox(existing)
          attempt--
          continue
        }
        throw new AppError('address_taken', `The address ${address} is already taken. Please choose another name.`, { localPart: 'This name is taken.' })
      }
    }
    throw new AppError('internal', 'Could not create an address. Please try again.')
  }

  /** The live inbox for an address from a URL: 400 when malformed, 404 when unknown or expired (even before the sweep). */
  async getInbox(rawAddress: string): Promise<InboxRow> {
    const { address } = parseAddress(rawAddress)
    await this.watcher.sync()
    let inbox = this.inboxByAddress.get(address)
    // A cached row past its expiry may be stale: another API process can have kept the address longer since.
    if (!inbox || inbox.expires_at <= Date.now()) {
      const dropsBefore = this.rowDrops
      inbox = await findInboxByAddress(this.db, address)
      // A change heard while reading (another node's notification) may postdate what was read: the next read reads again.
      if (inbox && this.rowDrops === dropsBefore) this.rememberInbox(inbox)
    }
    if (!inbox || inbox.expires_at <= Date.now()) throw new AppError('inbox_not_found', INBOX_NOT_FOUND)
    return inbox
  }

  private dropRows(): void {
    this.rowDrops++
    this.inboxByAddress.clear()
  }

  private rememberInbox(inbox: InboxRow): void {
    if (this.inboxByAddress.size >= MAX_CACHED_INBOXES) {
      const oldest = this.inboxByAddress.keys().next().value
      if (oldest !== undefined) this.inboxByAddress.delete(oldest)
    }
    this.inboxByAddress.set(inbox.address, inbox)
  }

  /**
   * Deletes an address and its mail before it expires (its holder is done with it). Knowing the address is what
   * lets anyone read it, so it is also what lets them release it. Its active place under the per-client limit
   * (the one of the client that made it) is freed; open streams of it end as they do at expiry.
   */
  async releaseInbox(rawAddress: string): Promise<void> {
    const inbox = await this.getInbox(rawAddress)
    if (!(await deleteInbox(this.db, inbox.id))) throw new AppError('inbox_not_found', INBOX_NOT_FOUND)
    await this.inboxDeleted(inbox)
  }

  /** An inbox deleted before its time (released or burned): caches forget it, its streams end, its place is freed. */
  private async inboxDeleted(inbox: InboxRow): Promise<void> {
    this.forgetInbox(inbox)
    this.watcher.inboxExpired(inbox.id)
    await this.limiter.moveEnd(inbox.address, Date.now())
  }

  /** Saves a live address (the one in use when signing in) to the account; 409 when another account holds it. */
  async saveToAccount(userId: number, rawAddress: string, now = Date.now()): Promise<SavedAddress> {
    const { address } = parseAddress(rawAddress)
    const row = await assignInboxToUser(this.db, address, userId, now)
    // A cached row names no owner: this node's next request must know (other nodes hear it from the storage).
    this.inboxByAddress.delete(address)
    if (row) return { email: row.address, createdAt: new Date(row.created_at).toISOString(), expiresAt: new Date(row.expires_at).toISOString() }
    const existing = await findInboxByAddress(this.db, address)
    if (existing && existing.expires_at > now) throw new AppError('address_taken', 'This address is saved to another account.')
    throw new AppError('inbox_not_found', INBOX_NOT_FOUND)
  }

  /** Inboxes deleted elsewhere (an account deletion) must not be served from the caches. */
  forgetInboxes(inboxes: readonly Pick<InboxRow, 'id' | 'address'>[]): void {
    for (const inbox of inboxes) this.forgetInbox(inbox)
  }

  private forgetInbox(inbox: Pick<InboxRow, 'id' | 'address'>): void {
    this.inboxByAddress.delete(inbox.address)
    this.firstPages.delete(inbox.id)
  }

  /**
   * The summary of a whole row (the event stream), built alone: a message whose view fails is listed with what could
   * be built (its envelope), logged once, and never breaks anything else.
   */
  summary(row: MessageSummaryRow): MessageSummary {
    return this.summaryOfListRow(listRowOf(row))
  }

  /** The summary from what the listing reads of a message (a webhook payload reads no more). */
  summaryOfListRow(row: ListRow): MessageSummary {
    try {
      return buildSummary(row)
    } catch (error) {
      this.viewFailed(row.id, error)
      return fallbackSummary(row)
    }
  }

  private viewFailed(id: number, error: unknown): void {
    if (this.loggedFailures.has(id)) return
    if (this.loggedFailures.size >= MAX_LOGGED_FAILURES) this.loggedFailures.clear()
    this.loggedFailures.add(id)
    this.logError(`[inbox] the view of message ${id} could not be built; it is shown without it`, error)
  }

  /**
   * The cached first page of a live inbox, found without waiting (no read under way, no commit unheard), else null:
   * the poll's fast path, whose 304 then only compares tags. `getInbox` and `page` answer every other case.
   */
  cachedFirstPage(rawAddress: string, limit: number | undefined, before: string | undefined, q: string | undefined): Listing | null {
    if (before !== undefined || q !== undefined || (limit !== undefined && limit !== DEFAULT_INBOX_PAGE)) return null
    if (!this.watcher.upToDate()) return null
    const inbox = this.inboxByAddress.get(parseAddress(rawAddress).address)
    if (!inbox || inbox.expires_at <= Date.now()) return null
    return this.firstPages.get(inbox.id) ?? null
  }

  /**
   * One page of the inbox, newest first, as prepared bytes (compressed forms made on first request). `before` is a
   * message id: the page holds only older messages. The default first page (what polls ask for) is cached.
   */
  async page(inbox: InboxRow, limit = DEFAULT_INBOX_PAGE, before: number | null = null, conditions: readonly MessageCondition[] = []): Promise<Listing> {
    await this.watcher.sync()
    const searching = conditions.length > 0
    // Search results are not cached: the cache holds what polls ask for, one entry per inbox.
    const first = before === null && limit === DEFAULT_INBOX_PAGE && !searching
    const cached = first ? this.firstPages.get(inbox.id) : undefined
    if (cached !== undefined) return cached
    if (searching) return this.searchPage(inbox, limit, before, conditions)
    const changesBefore = this.changes
    const { rows, more } = await listInboxPage(this.db, inbox.id, limit, before)
    const body: InboxResponse = {
      messages: rows.map((r) => this.summaryOfListRow(r)),
      total: await countInboxMessages(this.db, inbox.id),
      unread: await countUnreadMessages(this.db, inbox.id),
      nextBefore: more ? String(rows[rows.length - 1]!.id) : null,
    }
    const listing = new Listing(JSON.stringify(body))
    // Only cache when nothing was committed meanwhile: otherwise the next read rebuilds it.
    await this.watcher.sync()
    if (first && this.changes === changesBefore) this.firstPages.set(inbox.id, listing)
    return listing
  }

  /** A search's page: the inbox scanned in slices within SEARCH_TIME_BUDGET_MS (searchInboxPage), `searchCut` when it ran out. */
  private async searchPage(inbox: InboxRow, limit: number, before: number | null, conditions: readonly MessageCondition[]): Promise<Listing> {
    const found = await searchInboxPage(this.db, inbox.id, conditions, { limit, before, budgetMs: this.config.search.timeBudgetMs })
    const rows = (await findListRowsByIds(this.db, found.ids)).sort((a, b) => b.id - a.id)
    const body: InboxResponse = {
      messages: rows.map((r) => this.summaryOfListRow(r)),
      total: found.total,
      unread: await countUnreadMessages(this.db, inbox.id),
      nextBefore: found.nextBefore === null ? null : String(found.nextBefore),
      searchCut: found.cut,
    }
    return new Listing(JSON.stringify(body))
  }

  private async messageRow(inbox: InboxRow, rawId: string): Promise<MessageSummaryRow> {
    const id = Number(rawId)
    const row = Number.isSafeInteger(id) ? await findMessage(this.db, inbox.id, id) : undefined
    if (!row) throw new AppError('message_not_found', 'This message does not exist. It may have been deleted.')
    return row
  }

  async fullMessage(inbox: InboxRow, rawId: string): Promise<FullMessage> {
    return this.fullView(inbox, await this.messageRow(inbox, rawId))
  }

  /**
   * The message view with its sender check, as the JSON bytes a GET answers (`serialize` is the route's serializer),
   * from the cache when the message has not changed since they were made. A view made here never turns its large texts
   * into strings: they are read as UTF-8 bytes and spliced, JSON-escaped, into the serialized rest (viewBytes).
   */
  async fullMessageJson(inbox: InboxRow, rawId: string, serialize: (view: FullMessage & { auth: MessageAuth | null }) => string): Promise<Buffer> {
    const id = Number(rawId)
    const lean = Number.isSafeInteger(id) ? await findMessageForView(this.db, inbox.id, id) : undefined
    if (!lean) throw new AppError('message_not_found', 'This message does not exist. It may have been deleted.')
    const auth = toMessageAuth(await findMessageAuth(this.db, inbox.id, lean.id))
    const version = JSON.stringify([lean.derived_version, auth])
    const cached = this.views.get(lean.id)
    if (cached?.version === version) return cached.body
    const body =
      (await this.viewBytes(inbox, lean, auth, serialize)) ?? Buffer.from(serialize({ ...(await this.fullView(inbox, await this.messageRow(inbox, rawId))), auth }))
    this.views.set(lean.id, { version, body })
    return body
  }

  /**
   * fullView's JSON with the text and HTML as bytes, byte for byte what serializing fullView gives (the text's cut is
   * the same character; JSON escaping is JSON.stringify's). Null when a stored text is not valid UTF-8.
   */
  private async viewBytes(inbox: InboxRow, row: MessageViewRow, auth: MessageAuth | null, serialize: (view: FullMessage & { auth: MessageAuth | null }) => string): Promise<Buffer | null> {
    const text = await findViewTextBytes(this.db, row.message_content_id, this.config.messageTextMaxChars)
    // plainContent's choice: the text part unless it is blank, else the text rendering of the HTML.
    const hasText = text.text !== null && !isBlankUtf8(text.text)
    // Sanitized HTML is made from HTML only, and never for HTML withheld; the rendering is shown only without a text part.
    const wantHtml = row.has_html === 1 && row.html_withheld === null
    const { safeHtml, htmlText } = await findViewBodyBytes(this.db, row.message_content_id, { safeHtml: wantHtml, htmlText: !hasText })
    const headers = await findViewHeaders(this.db, row.message_content_id)
    const attachments = await listAttachments(this.db, row.message_content_id, this.config.messageViewMaxAttachments)
    const view = toFullMessage(
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

  async rawMessage(inbox: InboxRow, rawId: string): Promise<{ id: number; subject: string; raw: Buffer }> {
    const id = Number(rawId)
    const row = Number.isSafeInteger(id) ? await findRawMessage(this.db, inbox.id, id) : undefined
    if (!row) throw new AppError('message_not_found', 'This message does not exist. It may have been deleted.')
    return row
  }

  async attachment(inbox: InboxRow, rawId: string, index: number) {
    const row = await this.messageRow(inbox, rawId)
    const attachment = await findAttachment(this.db, row.message_content_id, index)
    if (!attachment) throw new AppError('attachment_not_found', 'This attachment does not exist.')
    return attachment
  }

  async deleteMessage(inbox: InboxRow, rawId: string): Promise<void> {
    const id = Number(rawId)
    const deleted = Number.isSafeInteger(id) && (await deleteMessage(this.db, inbox.id, id))
    if (!deleted) throw new AppError('message_not_found', 'This message does not exist. It may have been deleted.')
    this.messageGone(inbox.id, id)
    await this.peers.messageDeleted(inbox.id, id)
  }

  /**
   * Marks a message read or unread in this inbox only (another inbox holding the same mail keeps its own state).
   * Reading a message never marks it: GET stays safe for API clients, prefetchers and waits, and the web app says
   * when its reader opened one. Setting the state it already has changes nothing, so listings keep their ETag.
   */
  async setRead(inbox: InboxRow, rawId: string, read: boolean): Promise<MessageReadState> {
    const id = Number(rawId)
    const result = Number.isSafeInteger(id) ? await setMessageRead(this.db, inbox.id, id, read, Date.now()) : { found: false, changed: false }
    if (!result.found) throw new AppError('message_not_found', 'This message does not exist. It may have been deleted.')
    // Any read of a burn-on-read inbox is its first one: the inbox does not outlive it.
    if (read && (await deleteIfBurnsOnRead(this.db, inbox.id))) {
      await this.inboxDeleted(inbox)
      return { id: String(id), read, unread: 0, burned: true }
    }
    if (result.changed) {
      this.readStateChanged(inbox.id)
      await this.peers.readStateChanged(inbox.id)
    }
    return { id: String(id), read, unread: await countUnreadMessages(this.db, inbox.id) }
  }

  /** A change no new message id shows (here, or told by `peers`): the cached first page, and its ETag, must go. */
  private readStateChanged(inboxId: number): void {
    this.changes++
    this.firstPages.delete(inboxId)
  }

  private messageGone(inboxId: number, id: number): void {
    this.views.delete(id)
    this.watcher.messageDeleted(inboxId, id)
  }

  /** Messages newer than `afterId` (SSE catch-up after a reconnect). */
  async messagesAfter(inbox: InboxRow, afterId: number): Promise<MessageSummaryRow[]> {
    return listMessagesAfter(this.db, inbox.id, afterId)
  }

  async firstMessageAfter(inbox: InboxRow, afterId: number): Promise<MessageSummaryRow | undefined> {
    return findFirstMessageAfter(this.db, inbox.id, afterId)
  }

  /** The oldest `limit` messages newer than `afterId` that meet the conditions, whole (the filtered long poll). */
  async matchingMessagesAfter(inbox: InboxRow, afterId: number, conditions: readonly MessageCondition[], limit: number): Promise<number[]> {
    return findMatchesAfter(this.db, inbox.id, afterId, conditions, { limit, budgetMs: this.config.search.timeBudgetMs })
  }

  async fullMessagesByIds(inbox: InboxRow, ids: number[]): Promise<FullMessage[]> {
    const rows = (await findMessagesByIds(this.db, ids)).filter((r) => r.inbox_id === inbox.id)
    return Promise.all(rows.map((row) => this.fullView(inbox, row)))
  }

  async latestMessageId(inbox: InboxRow): Promise<number> {
    return maxInboxMessageId(this.db, inbox.id)
  }

  /** Deletes expired inboxes (and by cascade their mail); tells open streams. */
  async sweep(now = Date.now()): Promise<number> {
    const ids = await deleteExpiredInboxes(this.db, now)
    for (const [address, inbox] of this.inboxByAddress) if (inbox.expires_at <= now) this.inboxByAddress.delete(address)
    for (const id of ids) {
      this.firstPages.delete(id)
      this.watcher.inboxExpired(id)
    }
    this.limiter.sweep(now)
    return ids.length
  }
}

