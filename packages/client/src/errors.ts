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

/** A wait ended before what it waited for arrived; the message says what that was, where, and for how long. */
export class TempboxTimeoutError extends Error {
  readonly timeoutMs: number

  constructor(message: string, timeoutMs: number) {
    super(message)
    this.name = 'TempboxTimeoutError'
    this.timeoutMs = timeoutMs
  }
}
