import type { CodeResult, CodeWaitResponse, FullMessage } from '@tempbox/types'

export interface TempboxOptions {
  /** Where Tempbox runs: the site (`https://tempbox.example`) or its API root (`…/api`). */
  baseUrl: string
  /** A fetch to use instead of the global one (a proxy agent, a test double's recorder…). */
  fetch?: (input: string, init?: RequestInit) => Promise<Response>
}

export interface CreateInboxOptions {
  /** The name before the @ (at least 6 characters); random when left out. */
  localPart?: string
  /** One of the served domains; the first when left out. */
  domain?: string
}

/**
 * Which mail a wait looks at: a message id (mail with a larger id), or a time (mail received at or after it). By
 * default, mail newer than the last message a wait of this Inbox returned; before any, all mail of an inbox this
 * client created, and mail arriving after the call for an inbox attached with `tempbox.inbox(address)`.
 */
export type Since = string | Date

interface WaitBase {
  since?: Since
  /** How long to wait in all, across as many long polls as it takes (default 30000). */
  timeoutMs?: number
  signal?: AbortSignal
}

export interface WaitForMessageOptions extends WaitBase {
  /** Each a case-insensitive substring of the subject, the sender (name or address), the text. */
  subject?: string
  from?: string
  contains?: string
}

export type WaitForCodeOptions = WaitBase

export interface WaitForLinkOptions extends WaitBase {
  /** Only a link whose URL contains this string or matches this pattern. */
  match?: string | RegExp
}

export interface FoundLink {
  url: string
  label: string
  messageId: string
  receivedAt: string
}

export type { CodeResult, CodeWaitResponse, FullMessage }
