import type { FullMessage, InboxResponse, MessageSummary, WaitResponse } from '@tempbox/types'
import { query, type Api } from './http.js'
import type { CodeResult, CodeWaitResponse, FoundLink, Since, WaitForCodeOptions, WaitForLinkOptions, WaitForMessageOptions } from './types.js'
import { waitUntil } from './wait-loop.js'
import { TempboxTimeoutError } from './errors.js'
import { describeNearMisses } from './near-misses.js'

const DEFAULT_TIMEOUT_MS = 30_000
/** The longest the look after a wait's deadline may take: it reads, it does not wait. */
const LAST_LOOK_MS = 5_000
/** The API's largest page of an inbox listing. */
const PAGE = 200

/** One address: its mail, waits for what arrives, and deleting it. */
export class Inbox {
  /**
   * The newest message id a wait has looked past: later waits start there, so a second `waitForCode()` never answers
   * with the code the first one already returned. Null until known for an attached inbox (resolved at its first wait).
   */
  private cursor: string | null

  constructor(
    private readonly api: Api,
    /** The full address, e.g. `k7m2qx9ta4pe@tempbox.example`. */
    readonly address: string,
    /** When the address and its mail are deleted (ISO 8601); null for an inbox attached by address. */
    readonly expiresAt: string | null,
    cursor: string | null,
  ) {
    this.cursor = cursor
  }

  private get path(): string {
    return `/email/${encodeURIComponent(this.address)}`
  }

  /** The whole message with a larger id than `since` that matches every filter given (the oldest such). */
  async waitForMessage(options: WaitForMessageOptions = {}): Promise<FullMessage> {
    const { subject, from, contains } = options
    const since = await this.resolveSince(options.since)
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
    const path = (seconds: number) => `${this.path}/wait${query({ since, subject, from, contains, timeout: seconds })}`
    let message: FullMessage
    try {
      message = await waitUntil(timeoutMs, () => `no message${describeFilters({ subject, from, contains })} arrived at ${this.address}`, options.signal, async (seconds, signal) => {
        return (await this.api.json<WaitResponse>(path(seconds), { signal })).message
      })
    } catch (error) {
      if (!(error instanceof TempboxTimeoutError)) throw error
      // One last look (timeout=0) at the deadline: the poll cut there took its answer, and with it why nothing came.
      const last = await this.api
        .json<WaitResponse>(path(0), { signal: anySignal(AbortSignal.timeout(LAST_LOOK_MS), options.signal) })
        .catch(() => null)
      if (!last?.message) throw new TempboxTimeoutError(`${error.message}${describeNearMisses(last?.nearMisses)}`, error.timeoutMs, last?.nearMisses)
      message = last.message
    }
    this.advance(message.id)
    return message
  }

  /** The newest code of the newest message with a code received after `since`; older mail's codes never count. */
  async waitForCode(options: WaitForCodeOptions = {}): Promise<CodeResult> {
    const since = await this.resolveSince(options.since)
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
    const found = await waitUntil(timeoutMs, () => `no message with a code arrived at ${this.address}`, options.signal, async (seconds, signal) => {
      const answer = await this.api.json<CodeWaitResponse>(`${this.path}/code${query({ since, timeout: seconds })}`, { signal })
      return answer.code
    })
    this.advance(found.messageId)
    return found
  }

  /** The first verification, confirmation or sign-in link (matching `match`, if given) of mail after `since`. */
  async waitForLink(options: WaitForLinkOptions = {}): Promise<FoundLink> {
    const { match } = options
    let since = await this.resolveSince(options.since)
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
    const what = match === undefined ? 'a link' : `a link matching ${typeof match === 'string' ? JSON.stringify(match) : String(match)}`
    const found = await waitUntil(timeoutMs, () => `no message with ${what} arrived at ${this.address}`, options.signal, async (seconds, signal) => {
      const { message } = await this.api.json<WaitResponse>(`${this.path}/wait${query({ since, timeout: seconds })}`, { signal })
      if (message === null) return null
      // Mail without such a link is stepped over, one message per answer, oldest first.
      since = message.id
      const link = message.verification.links.find((l) => matches(l.url, match))
      return link ? { url: link.url, label: link.label, messageId: message.id, receivedAt: message.receivedAt } : null
    })
    this.advance(found.messageId)
    return found
  }

  /** Summaries of every message, newest first (`q` searches as the API's listing does). */
  async messages(options: { q?: string } = {}): Promise<MessageSummary[]> {
    const all: MessageSummary[] = []
    let before: string | undefined
    do {
      const page = await this.api.json<InboxResponse>(`${this.path}${query({ limit: PAGE, before, q: options.q })}`)
      all.push(...page.messages)
      before = page.nextBefore ?? undefined
    } while (before !== undefined)
    return all
  }

  /** The whole message: text, sanitized HTML, headers, attachments, codes and links, sender verdict. */
  message(id: string): Promise<FullMessage> {
    return this.api.json<FullMessage>(`${this.path}/messages/${encodeURIComponent(id)}`)
  }

  /** The message exactly as received (its .eml bytes). */
  async raw(id: string): Promise<Uint8Array> {
    const res = await this.api.request(`${this.path}/messages/${encodeURIComponent(id)}/raw`, { headers: { accept: 'message/rfc822' } })
    return new Uint8Array(await res.arrayBuffer())
  }

  /** Deletes the address and its mail now, before it expires. */
  async delete(): Promise<void> {
    await this.api.request(this.path, { method: 'DELETE' })
  }

  private async resolveSince(since: Since | undefined): Promise<string> {
    if (typeof since === 'string') return since
    if (since instanceof Date) return this.newestBefore(since)
    this.cursor ??= (await this.api.json<InboxResponse>(`${this.path}${query({ limit: 1 })}`)).messages[0]?.id ?? '0'
    return this.cursor
  }

  /** The id of the newest message received before `time`; '0' when there is none. Ids grow with arrival. */
  private async newestBefore(time: Date): Promise<string> {
    let before: string | undefined
    do {
      const page = await this.api.json<InboxResponse>(`${this.path}${query({ limit: PAGE, before })}`)
      const older = page.messages.find((m) => Date.parse(m.receivedAt) < time.getTime())
      if (older) return older.id
      before = page.nextBefore ?? undefined
    } while (before !== undefined)
    return '0'
  }

  private advance(id: string): void {
    if (this.cursor === null || Number(id) > Number(this.cursor)) this.cursor = id
  }
}

function matches(url: string, match: string | RegExp | undefined): boolean {
  if (match === undefined) return true
  if (typeof match === 'string') return url.includes(match)
  match.lastIndex = 0
  return match.test(url)
}

function describeFilters(filters: Record<string, string | undefined>): string {
  const given = Object.entries(filters).filter(([, value]) => value !== undefined)
  return given.length === 0 ? '' : ` matching ${given.map(([name, value]) => `${name} ${JSON.stringify(value)}`).join(', ')}`
}

function anySignal(timeout: AbortSignal, signal: AbortSignal | undefined): AbortSignal {
  return signal ? AbortSignal.any([timeout, signal]) : timeout
}
