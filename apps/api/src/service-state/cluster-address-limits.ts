import type { AddressLimits } from './shared-state.js'
import type { IpcClient } from '../cluster/ipc.js'

/**
 * A worker's view of the per-client address limits, which the primary keeps in its one AddressLimiter: each reserve
 * checks and counts there in one step, so clients cannot exceed a limit by spreading requests over workers.
 */
export class ClusterAddressLimits implements AddressLimits {
  constructor(private readonly ipc: IpcClient) {}

  reserve(ip: string, address: string, expiresAt: number, now: number): Promise<void> {
    return this.ipc.request('limits.reserve', { ip, address, expiresAt, now })
  }

  release(ip: string, address: string, now: number): Promise<void> {
    return this.ipc.request('limits.release', { ip, address, now })
  }

  moveEnd(address: string, expiresAt: number): Promise<void> {
    return this.ipc.request('limits.moveEnd', { address, expiresAt })
  }

  /** The primary prunes its limiter on its own timer. */
  sweep(): void {}
}
