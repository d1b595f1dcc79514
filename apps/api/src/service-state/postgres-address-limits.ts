import type { Db } from '@tempbox/db'
import { deleteSlot, deleteSpentSlots, moveSlotEnd, reserveSlot, type SlotLimits } from '../repositories/address-limit-repository.js'
import { activeLimitReached, hourlyLimitReached } from './address-limit-errors.js'
import type { AddressLimits } from './shared-state.js'
import { hashClient } from './client-keys.js'

/**
 * The per-client address limits in PostgreSQL, so they hold across every API node: the same limits and answers as
 * AddressLimiter, counted in rows keyed by an HMAC of the IP (see address-limit-repository.ts for the locking).
 * Expired slots are deleted by the service's sweep (`expire`), not by `sweep`, which the inbox sweep calls per node.
 */
export class PostgresAddressLimits implements AddressLimits {
  private readonly limits: SlotLimits

  constructor(
    private readonly db: Db,
    private readonly key: Buffer,
    maxActive: number,
    maxPerHour: number,
  ) {
    this.limits = { maxActive, maxPerHour }
  }

  async reserve(ip: string, address: string, expiresAt: number, now: number): Promise<void> {
    const outcome = await reserveSlot(this.db, hashClient(this.key, ip), hashClient(this.key, address), this.limits, expiresAt, now)
    if (outcome === 'hourly_limit') throw hourlyLimitReached(this.limits.maxPerHour)
    if (outcome === 'active_limit') throw activeLimitReached(this.limits.maxActive)
  }

  async release(ip: string, address: string, now: number): Promise<void> {
    await deleteSlot(this.db, hashClient(this.key, ip), hashClient(this.key, address), now)
  }

  async moveEnd(address: string, expiresAt: number): Promise<void> {
    await moveSlotEnd(this.db, hashClient(this.key, address), expiresAt)
  }

  /** Every node's inbox sweep calls this; the rows are deleted once for the service by `expire`. */
  sweep(): void {}

  /** Deletes what no longer limits anything (the one-per-service sweep). */
  expire(now: number): Promise<number> {
    return deleteSpentSlots(this.db, now)
  }
}
