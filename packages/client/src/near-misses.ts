import type { NearMisses } from '@tempbox/types'

/** The API's MAX_NEAR_MISSES (types only are imported: the client has no runtime dependencies). */
const LISTED_AT_MOST = 20

/**
 * The near misses in a few words, for a timeout's message: "; 2 arrived that did not match (subject), 1 was refused
 * (mailbox full)". Empty when nothing came.
 */
export function describeNearMisses(nearMisses: NearMisses | undefined): string {
  if (!nearMisses) return ''
  const parts: string[] = []
  const { messages, deliveries, more } = nearMisses
  if (messages.length > 0) {
    const failed = [...new Set(messages.flatMap((m) => m.failed))]
    const count = more && messages.length >= LISTED_AT_MOST ? `${messages.length} or more` : String(messages.length)
    parts.push(`${count} arrived that did not match (${failed.join(', ')})`)
  }
  for (const result of ['refused', 'deferred'] as const) {
    const these = deliveries.filter((d) => d.result === result)
    if (these.length === 0) continue
    const reasons = [...new Set(these.map((d) => (d.reason.startsWith('fault_') ? `+${d.reason.slice(6)} tag` : d.reason.replaceAll('_', ' '))))]
    parts.push(`${these.length} ${these.length === 1 ? 'was' : 'were'} ${result} (${reasons.join(', ')})`)
  }
  return parts.length === 0 ? '' : `; ${parts.join(', ')}`
}
