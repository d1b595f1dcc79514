import type { Db } from '@tempbox/db'
import { hitWindow } from '../repositories/window-counter-repository.js'
import type { MissLimits } from './shared-state.js'
import { hashClient } from './client-keys.js'

/**
 * Misses counted in PostgreSQL, so guessing is slowed however its requests are spread over API nodes: the same fixed
 * one-minute windows as MissCounter, one upsert per miss. Ended windows are deleted by the service's sweep.
 */
export class PostgresMissLimits implements MissLimits {
  constructor(
    private readonly db: Db,
    private readonly key: Buffer,
    private readonly maxPerWindow: number,
    private readonly windowMs = 60_000,
  ) {}

  async miss(scope: string, client: string, now: number): Promise<number> {
    const { hits, msLeft } = await hitWindow(this.db, {
      scope: `miss:${scope}`,
      clientKey: hashClient(this.key, client),
      windowMs: this.windowMs,
      max: this.maxPerWindow,
      pastMax: 'keep',
      now,
    })
    return hits > this.maxPerWindow ? msLeft : 0
  }
}
