import { findMatchesAfter, searchInboxPage, type Db, type InboxRow, type MessageCondition } from '@tempbox/db'
import { DEFAULT_INBOX_PAGE, type InboxResponse, type MessageSummary } from '@tempbox/types'
import type { Config } from '../../config.js'
import {
  findListRowsByIds, inboxCounts, listInboxPage, listMessagesAfter, maxInboxMessageId,
  type ListRow, type MessageSummaryRow,
} from '../../repositories/message-repository.js'
import { buildSummary, fallbackSummary, listRowOf } from '../messages/message-view.js'
import type { MailWatcher } from '../messages/mail-watcher.js'
import type { InboxService } from './inbox-service.js'
import { Listing, ListingCache } from './inbox-listing.js'

/** Messages whose view failed are logged once each; the memory of which ones is bounded like the other caches. */
const MAX_LOGGED_FAILURES = 10_000

/**
 * What an inbox holds, as listings and as the catch-up of streams and waits. First pages are cached as ready JSON per
 * inbox (polling tabs ask far more often than mail arrives), within a byte budget; older pages are read on demand.
 * The watcher drops an inbox's entry whenever a message for it is committed, and every read first brings the watcher
 * up to date, so a cached page is never older than the latest commit. Deletions and read-state changes leave no new
 * message to see: on PostgreSQL every node hears of them from the storage (the changing transaction NOTIFYs at
 * commit), on SQLite other API processes from `peers` (message-state-service.ts calls readStateChanged).
 */
export class InboxListingService {
  private readonly firstPages: ListingCache
  /** Bumped on every inbox change, so a listing built while a message arrived is not cached. */
  private changes = 0
  private readonly loggedFailures = new Set<number>()

  constructor(
    private readonly db: Db,
    private readonly config: Config,
    private readonly watcher: MailWatcher,
    private readonly inboxes: InboxService,
    private readonly logError: (message: string, error: unknown) => void = (message, error) => console.error(message, error),
  ) {
    this.firstPages = new ListingCache(config.listingCacheBytes)
    watcher.onInboxChange((inboxId) => {
      this.changes++
      this.firstPages.delete(inboxId)
    })
    watcher.onInboxGone((inboxId) => this.firstPages.delete(inboxId))
    watcher.onResync(() => {
      this.changes++
      this.firstPages.clear()
    })
    inboxes.onForget((inboxId) => this.firstPages.delete(inboxId))
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
    const inbox = this.inboxes.cachedInbox(rawAddress)
    if (!inbox) return null
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
      ...(await inboxCounts(this.db, inbox.id)),
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
      unread: (await inboxCounts(this.db, inbox.id)).unread,
      nextBefore: found.nextBefore === null ? null : String(found.nextBefore),
      searchCut: found.cut,
    }
    return new Listing(JSON.stringify(body))
  }

  /** A change no new message id shows (here, or told by `peers`): the cached first page, and its ETag, must go. */
  readStateChanged(inboxId: number): void {
    this.changes++
    this.firstPages.delete(inboxId)
  }

  /** Messages newer than `afterId` (SSE catch-up after a reconnect). */
  messagesAfter(inbox: InboxRow, afterId: number): Promise<MessageSummaryRow[]> {
    return listMessagesAfter(this.db, inbox.id, afterId)
  }

  /** The oldest `limit` messages newer than `afterId` that meet the conditions, whole (the filtered long poll). */
  matchingMessagesAfter(inbox: InboxRow, afterId: number, conditions: readonly MessageCondition[], limit: number): Promise<number[]> {
    return findMatchesAfter(this.db, inbox.id, afterId, conditions, { limit, budgetMs: this.config.search.timeBudgetMs })
  }

  latestMessageId(inbox: InboxRow): Promise<number> {
    return maxInboxMessageId(this.db, inbox.id)
  }
}
