/**
 * The bytes of messages held in memory by every session together, from DATA until stored (or refused). Each DATA
 * reserves what it holds as it arrives; a message that would take the total past the budget stops being held (the
 * client is still read, and then told 451 4.3.1 to retry later), so a thousand slow 10 MB senders hold at most the
 * budget, not 10 GB.
 */
export function createInflightBudget(maxBytes: number) {
  let used = 0
  return {
    /** Whether a new message may start (some room is left). */
    hasRoom: (): boolean => used < maxBytes,
    /** Takes `bytes` if they fit; false (nothing taken) if not. */
    take: (bytes: number): boolean => {
      if (used + bytes > maxBytes) return false
      used += bytes
      return true
    },
    give: (bytes: number): void => {
      used = Math.max(0, used - bytes)
    },
    used: (): number => used,
  }
}

export type InflightBudget = ReturnType<typeof createInflightBudget>
