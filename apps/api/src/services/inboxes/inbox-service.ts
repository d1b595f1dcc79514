import { openIssuedAddresses, type Db, type InboxRow, type IssuedAddresses } from '@tempbox/db'
import type { GenerateEmailResponse, SavedAddress } from '@tempbox/types'
import type { Config } from '../../config.js'
import { AppError } from '../../errors.js'
import { assignInboxToUser, deleteExpiredInboxes, deleteInbox, findInboxByAddress } from '../../repositories/inbox-repository.js'
import { insertIssuedInbox } from '../../repositories/issued-inbox-repository.js'
import type { AddressLimits } from '../../service-state/shared-state.js'
import type { MailWatcher } from '../messages/mail-watcher.js'
import { parseAddress, randomLocalPart, validateLocalPart } from './address.js'
import { requestedBurn, type Burn } from './burn-request.js'
import { inboxNotFound } from './not-found.js'

const ADDRESS_RETIRED =
  'was used before and is retired for good, so mail meant for its earlier owner can never reach someone else. Choose another name.'
const MAX_CACHED_INBOXES = 10_000

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
 * Addresses and their lives: creating them under the per-client limits, finding the live one a URL names, releasing,
 * saving to an account, and the expiry sweep. Rows are cached by address; an inbox update leaves no new message to
 * see, so on PostgreSQL every node hears of it from the storage (through the watcher), on SQLite from `data_version`
 * (any commit clears the rows). What else caches by inbox hears of forgotten ones through `onForget`.
 */
export class InboxService {
  private readonly inboxByAddress = new Map<string, InboxRow>()
  /** Address as a URL spells it → as parsed: each poll of the same inbox parses the same string again. */
  private readonly addressOfRaw = new Map<string, string>()
  /** Bumped whenever address rows are dropped, so a row read while one changed is not kept (see getInbox). */
  private rowDrops = 0
  private readonly forgetHandlers: ((inboxId: number) => void)[] = []
  /** Every address ever issued, by HMAC: none is issued twice (issue 26). */
  private readonly issued: IssuedAddresses

  constructor(
    private readonly db: Db,
    private readonly config: Config,
    readonly watcher: MailWatcher,
    readonly limiter: AddressLimits,
  ) {
    this.issued = openIssuedAddresses(db)
    // Inboxes can also disappear by other paths (an account deleted with its addresses): after any commit the
    // address cache is rebuilt from the database. Polls between commits still cost no query.
    watcher.onAnyCommit(() => this.dropRows())
    // Deleted by any process or node, or its owner, burn mode or expiry changed on another node (PostgreSQL): the
    // cache is keyed by address, so it is rebuilt, as after any commit.
    watcher.onInboxGone(() => this.dropRows())
    watcher.onInboxUpdated(() => this.dropRows())
    watcher.onResync(() => this.dropRows())
  }

  domains(): readonly string[] {
    return this.config.mailDomains
  }

  /** `handler` is told of every inbox this service forgets (released, burned, swept, or deleted elsewhere). */
  onForget(handler: (inboxId: number) => void): void {
    this.forgetHandlers.push(handler)
  }

  async createInbox(input: CreateInboxInput): Promise<GenerateEmailResponse> {
    const domain = (input.domain ?? this.config.mailDomains[0]!).trim().toLowerCase()
    if (!this.config.mailDomains.includes(domain)) {
      throw new AppError('domain_not_served', `We don't receive mail for "${domain}". Choose one of: ${this.config.mailDomains.join(', ')}.`, {
        domain: 'Choose one of the listed domains.',
      })
    }
    const chosen = input.localPart !== undefined ? validateLocalPart(input.localPart) : null
    const burn = requestedBurn(input)
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
    if (!inbox || inbox.expires_at <= Date.now()) throw inboxNotFound()
    return inbox
  }

  /** The cached live row of an address from a URL, without waiting for anything; undefined when not at hand. */
  cachedInbox(rawAddress: string): InboxRow | undefined {
    let address = this.addressOfRaw.get(rawAddress)
    if (address === undefined) {
      address = parseAddress(rawAddress).address
      // Parsing is pure, so the memo never goes stale; emptied when full, as polls soon fill it again.
      if (this.addressOfRaw.size >= MAX_CACHED_INBOXES) this.addressOfRaw.clear()
      this.addressOfRaw.set(rawAddress, address)
    }
    const inbox = this.inboxByAddress.get(address)
    return inbox && inbox.expires_at > Date.now() ? inbox : undefined
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
    if (!(await deleteInbox(this.db, inbox.id))) throw inboxNotFound()
    await this.inboxDeleted(inbox)
  }

  /** An inbox deleted before its time (released or burned): caches forget it, its streams end, its place is freed. */
  async inboxDeleted(inbox: InboxRow): Promise<void> {
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
    throw inboxNotFound()
  }

  /** Inboxes deleted elsewhere (an account deletion) must not be served from the caches. */
  forgetInboxes(inboxes: readonly Pick<InboxRow, 'id' | 'address'>[]): void {
    for (const inbox of inboxes) this.forgetInbox(inbox)
  }

  private forgetInbox(inbox: Pick<InboxRow, 'id' | 'address'>): void {
    this.inboxByAddress.delete(inbox.address)
    for (const handler of this.forgetHandlers) handler(inbox.id)
  }

  /** Deletes expired inboxes (and by cascade their mail); tells open streams. */
  async sweep(now = Date.now()): Promise<number> {
    const ids = await deleteExpiredInboxes(this.db, now)
    for (const [address, inbox] of this.inboxByAddress) if (inbox.expires_at <= now) this.inboxByAddress.delete(address)
    for (const id of ids) {
      for (const handler of this.forgetHandlers) handler(id)
      this.watcher.inboxExpired(id)
    }
    this.limiter.sweep(now)
    return ids.length
  }
}
