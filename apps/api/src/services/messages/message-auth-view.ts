import type { MessageAuthRow } from '@tempbox/db'
import type { MessageAuth } from '@tempbox/types'

type Details = Pick<MessageAuth, 'fromDomain' | 'spf' | 'dkim' | 'dmarc' | 'arc'>

const NO_DETAILS: Details = { fromDomain: null, spf: null, dkim: [], dmarc: null, arc: null }

/** The stored check as the API shows it; null when the message was never checked (older mail, or MAIL_AUTH=off). */
export function toMessageAuth(row: MessageAuthRow | undefined): MessageAuth | null {
  if (!row) return null
  return {
    status: row.status,
    ...parseDetails(row.details),
    authenticationResults: row.authentication_results,
    checkedAt: row.checked_at === null ? null : new Date(row.checked_at).toISOString(),
  }
}

/** Written by mail-ingest (StoredMessageAuthDetails); a row it could not fill has none. */
function parseDetails(json: string | null): Details {
  if (!json) return NO_DETAILS
  try {
    const parsed = JSON.parse(json) as Partial<Details>
    return {
      fromDomain: parsed.fromDomain ?? null,
      spf: parsed.spf ?? null,
      dkim: Array.isArray(parsed.dkim) ? parsed.dkim : [],
      dmarc: parsed.dmarc ?? null,
      arc: parsed.arc ?? null,
    }
  } catch {
    return NO_DETAILS
  }
}
