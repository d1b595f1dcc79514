import { createHmac, randomBytes } from 'node:crypto'
import type { Db } from '@tempbox/db'
import { saltOfDay } from '../repositories/visitor-salt-repository.js'
import type { VisitorSalts } from './shared-state.js'

/**
 * The salt of the day shared through PostgreSQL, so every API node hashes a visitor alike: the first node to need a
 * day's salt stores a random one, the others read it, and each keeps it in memory for the rest of the day. The row
 * of a day is deleted by the next day's first page view on any node (and by the service's sweep), so once its day
 * is over the salt is nowhere; what hashes with it is an HMAC under a key derived from the service's secret, so the
 * row alone, read during its day, does not give the salt either. Asked for a day older than the newest one stored
 * (a node's clock behind another's at midnight), it answers a throwaway salt, as DailySalt does.
 */
export class PostgresVisitorSalts implements VisitorSalts {
  private current: { day: string; salt: Promise<Buffer> } | null = null

  constructor(
    private readonly db: Db,
    private readonly key: Buffer,
  ) {}

  forDay(day: string): Promise<Buffer> {
    if (this.current && day < this.current.day) return Promise.resolve(randomBytes(32))
    if (this.current?.day !== day) {
      const salt = saltOfDay(this.db, day, randomBytes(32)).then((stored) => (stored ? createHmac('sha256', this.key).update(stored).digest() : randomBytes(32)))
      const current = { day, salt }
      this.current = current
      // A failed read is not kept: the next page view asks again.
      salt.catch(() => {
        if (this.current === current) this.current = null
      })
    }
    return this.current.salt
  }
}
