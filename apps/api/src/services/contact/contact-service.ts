import type { Db } from '@tempbox/db'
import { CONTACT_LIMITS, type ContactBody, type ContactMessage } from '@tempbox/types'
import type { ContactMessageRow } from '@tempbox/db'
import { AppError } from '../../errors.js'
import { insertContactMessage, listContactMessages, updateContactStatus } from '../../repositories/contact-repository.js'
import { emailProblem } from '../accounts/user-fields.js'

const LABELS = { name: 'Name', email: 'Email', subject: 'Subject', message: 'Message' } as const
const SETTABLE_STATUSES = new Set(['read', 'replied'])

export async function submitContact(db: Db, body: ContactBody, now = Date.now()): Promise<number> {
  const values = {
    name: body.name.trim(),
    email: body.email.trim(),
    subject: body.subject.trim(),
    message: body.message.trim(),
  }
  const fields: Record<string, string> = {}
  for (const key of Object.keys(LABELS) as (keyof typeof LABELS)[]) {
    if (values[key] === '') fields[key] = `${LABELS[key]} is required.`
    else if (values[key].length > CONTACT_LIMITS[key]) fields[key] = `${LABELS[key]} must be at most ${CONTACT_LIMITS[key]} characters.`
  }
  if (!fields.email) {
    const problem = emailProblem(values.email)
    if (problem) fields.email = problem
  }
  const first = Object.values(fields)[0]
  if (first) throw new AppError('validation_failed', first, fields)
  return insertContactMessage(db, { ...values, status: 'new', submitted_at: now })
}

export function toContactMessage(row: ContactMessageRow): ContactMessage {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    subject: row.subject,
    message: row.message,
    status: row.status || 'new',
    submittedAt: new Date(row.submitted_at).toISOString(),
  }
}

export async function listContacts(db: Db, page: number, limit: number) {
  const { rows, total } = await listContactMessages(db, (page - 1) * limit, limit)
  return { contacts: rows.map(toContactMessage), total }
}

export async function setContactStatus(db: Db, id: number, status: string): Promise<ContactMessage> {
  if (!SETTABLE_STATUSES.has(status)) {
    throw new AppError('validation_failed', 'Status must be "read" or "replied".', { status: 'Status must be "read" or "replied".' })
  }
  const row = await updateContactStatus(db, id, status)
  if (!row) throw new AppError('contact_not_found', 'This contact message does not exist.')
  return toContactMessage(row)
}
