import { randomBytes } from 'node:crypto'

import type { VisitorSalts } from './shared-state.js'

/**
 * A random salt that lives only in memory and is replaced when the day changes, so visitor hashes can't be linked
 * across days or reversed once the day is over. A request for a day older than the current one (a page view racing
 * midnight in another process) gets a throwaway salt: bringing the old one back would let the current day's salt
 * change twice.
 */
export class DailySalt implements VisitorSalts {
  private salt: { day: string; key: Buffer } | null = null

  forDay(day: string): Buffer {
    if (this.salt && day < this.salt.day) return randomBytes(32)
    if (this.salt?.day !== day) this.salt = { day, key: randomBytes(32) }
    return this.salt.key
  }
}
