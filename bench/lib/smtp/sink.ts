/** The bare smtp-server sink as a bench target (sink-server.mjs): the protocol's own cost, the ceiling we are measured against. */
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { spawnUntil } from '../processes.js'
import type { Target } from './run-scenario.js'
import { DOMAIN, INBOX_COUNT } from './settings.js'

export const SINK_NAME = 'bare smtp-server (sink)'

export async function startSink(): Promise<Target> {
  const here = dirname(fileURLToPath(import.meta.url))
  const proc = await spawnUntil(process.execPath, [join(here, 'sink-server.mjs')], { cwd: here, readyText: /sink listening on \d+/ })
  const port = Number(/sink listening on (\d+)/.exec(proc.output())![1])
  return {
    name: SINK_NAME,
    ports: [port],
    pids: [proc.child.pid!],
    recipient: (i) => `bench${i % INBOX_COUNT}@${DOMAIN}`,
    discards: true,
    takeStored: async () => ({ byId: new Map(), unnamed: 0 }),
    stop: proc.stop,
  }
}
