import type { UserRow } from '@tempbox/db'
import type { PublicUser } from '@tempbox/types'

/** Practical email check: one @, no spaces, a dot in the domain. Delivery is the real test; this catches typos. */
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
export const EMAIL_MAX_LENGTH = 254

export function normaliseEmail(raw: string): string {
  return raw.trim().toLowerCase()
}

/** Null when valid, else the sentence to show under the field. */
export function emailProblem(email: string): string | null {
  if (email === '') return 'Email is required.'
  if (email.length > EMAIL_MAX_LENGTH) return `Email must be at most ${EMAIL_MAX_LENGTH} characters.`
  if (!EMAIL_RE.test(email)) return 'Please enter a valid email address.'
  return null
}

export function toPublicUser(row: UserRow): PublicUser {
  return {
    id: row.id,
    email: row.email,
    username: row.username,
    role: row.role,
    createdAt: new Date(row.created_at).toISOString(),
    authenticated: true,
  }
}

export function isAdminRole(role: string | null | undefined): boolean {
  return role === 'admin' || role === 'owner'
}
