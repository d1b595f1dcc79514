import type { NearMisses } from '@tempbox/types'

/** An error answer of the API: `message` is its `error` sentence, `code` its machine-readable code. */
export class TempboxError extends Error {
  readonly code: string
  readonly status: number
  /** Per-field messages of a `validation_failed` answer. */
  readonly fields?: Record<string, string>

  constructor(message: string, code: string, status: number, fields?: Record<string, string>) {
    super(message)
    this.name = 'TempboxError'
    this.code = code
    this.status = status
    this.fields = fields
  }
}

/**
 * A wait ended before what it waited for arrived; the message says what that was, where, for how long, and (for
 * `waitForMessage`) what arrived meanwhile that did not count: `nearMisses`.
 */
export class TempboxTimeoutError extends Error {
  readonly timeoutMs: number
  /** Messages that missed a filter and deliveries refused or deferred during the wait; absent when not known. */
  readonly nearMisses?: NearMisses

  constructor(message: string, timeoutMs: number, nearMisses?: NearMisses) {
    super(message)
    this.name = 'TempboxTimeoutError'
    this.timeoutMs = timeoutMs
    if (nearMisses) this.nearMisses = nearMisses
  }
}
