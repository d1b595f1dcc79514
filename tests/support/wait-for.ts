import { createConnection } from 'node:net'

/** Polls `check` until it resolves true or the deadline passes. */
export async function waitFor(check: () => Promise<boolean> | boolean, timeoutMs = 20_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    try {
      if (await check()) return
    } catch {
      // not ready yet
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

export function portAccepts(port: number): Promise<boolean> {
  return new Promise((ok) => {
    const sock = createConnection({ host: '127.0.0.1', port })
    sock.once('connect', () => { sock.destroy(); ok(true) })
    sock.once('error', () => ok(false))
  })
}
