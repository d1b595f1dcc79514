import type { AddressLimits } from '../services/limits/ip-limits.js'
import type { IpcClient } from './ipc.js'

/**
 * A worker's view of the per-client address limits, which the primary keeps in its one AddressLimiter: each reserve
 * checks and counts there in one step, so clients cannot exceed a limit by spreading requests over workers.
 */
export class SharedAddressLimits implements AddressLimits {
  constructor(private readonly ipc: IpcClient) {}

  reserve(ip: string, expiresAt: number, now: number): Promise<void> {
    return this.ipc.request('limits.reserve', { ip, expiresAt, now })
  }

  release(ip: string, expiresAt: number, now: number): Promise<void> {
    return this.ipc.request('limits.release', { ip, expiresAt, now })
  }

  free(ip: string, expiresAt: number): Promise<void> {
    return this.ipc.request('limits.free', { ip, expiresAt })
  }

  /** The primary prunes its limiter on its own timer. */
  sweep(): void {}
}
