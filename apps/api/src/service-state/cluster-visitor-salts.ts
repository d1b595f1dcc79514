import type { VisitorSalts } from './shared-state.js'
import type { IpcClient } from '../cluster/ipc.js'

/** The analytics salt of the day from the primary, asked once a day per worker, so all workers hash a visitor alike. */
export class ClusterVisitorSalts implements VisitorSalts {
  private current: { day: string; salt: Promise<Buffer> } | null = null

  constructor(private readonly ipc: IpcClient) {}

  forDay(day: string): Promise<Buffer> {
    if (this.current?.day !== day) {
      const salt = this.ipc.request('salt.forDay', { day }).then((key) => Buffer.from(key, 'base64'))
      const current = { day, salt }
      this.current = current
      // A failed ask is not kept: the next page view asks again.
      salt.catch(() => {
        if (this.current === current) this.current = null
      })
    }
    return this.current.salt
  }
}
