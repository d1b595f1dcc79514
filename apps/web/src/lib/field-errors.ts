import { ApiError } from './api-client'

/** Errors of a form: one per field it names, `form` for what concerns no one field (the network, the whole form). */
export type FieldErrors<K extends string> = Partial<Record<K | 'form', string>>

/**
 * Spreads a failed call over a form's fields: the server's `fields` it knows go to their field, anything else to
 * `form`, in the server's words (else `fallback`, e.g. when the server could not be reached).
 */
export function fieldErrorsOf<K extends string>(err: unknown, known: readonly K[], fallback: string): FieldErrors<K> {
  const errors: FieldErrors<K> = {}
  if (err instanceof ApiError) {
    for (const field of known) if (err.fields[field]) errors[field] = err.fields[field]
    if (Object.keys(errors).length === 0) errors.form = err.message || fallback
    return errors
  }
  return { form: fallback } as FieldErrors<K>
}

/** Props tying a field to its error (and else to its hint), for `<Input {...describedBy(…)} />`. */
export function describedBy(errorId: string, error: string | undefined, hintId?: string) {
  return { 'aria-invalid': error ? true : undefined, 'aria-describedby': error ? [errorId, hintId].filter(Boolean).join(' ') : hintId }
}
