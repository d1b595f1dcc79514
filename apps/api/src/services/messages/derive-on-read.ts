import type { MessageContentRow } from '@tempbox/db'
import { DERIVED_VERSION, deriveMessage } from '@tempbox/mail-derive'
import type { DerivedColumns, MessageSummaryRow } from '../../repositories/message-repository.js'

/** Whether the row's derived columns come from the current derivation (ingest stores them; older rows lack them). */
export function isDerived(row: Pick<MessageSummaryRow, 'derived_version'>): boolean {
  return row.derived_version === DERIVED_VERSION
}

/** The derived columns of a stored message, as ingest would have stored them (bounded work: see @tempbox/mail-derive). */
export function deriveColumns(row: Pick<MessageSummaryRow, 'subject'> & Pick<MessageContentRow, 'text' | 'html'>, contentIds: (string | null)[]): DerivedColumns {
  const d = deriveMessage({ subject: row.subject, text: row.text, html: row.html, contentIds })
  if (d.failures.length > 0) console.error(`[inbox] deriving a stored message's view failed in part: ${d.failures.join('; ')}`)
  return {
    derived_version: d.version,
    preview: d.preview,
    html_text: d.htmlText,
    codes: JSON.stringify(d.codes),
    links: JSON.stringify(d.links),
    safe_html: d.safeHtml,
    has_remote_content: d.hasRemoteContent ? 1 : 0,
    html_withheld: d.htmlWithheld,
  }
}
