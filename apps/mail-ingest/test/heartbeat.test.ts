import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { INGEST_SERVICE, lastHeartbeat, openStorage } from '@tempbox/db'
import { migratedSqliteFile } from '@tempbox/db/testing'
import { afterEach, describe, expect, it } from 'vitest'
import { startHeartbeat } from '../src/heartbeat.js'

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

// main.ts prints "[smtp] listening" after `first`: the api's readiness must not call a listening ingest absent.
describe("ingest's heartbeat", () => {
  it('has written its first beat when `first` settles, and beats again each interval', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tempbox-heartbeat-'))
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
    await migratedSqliteFile(join(dir, 'tempbox.sqlite'))
    const storage = openStorage({ path: join(dir, 'tempbox.sqlite') })
    cleanups.push(() => storage.close())
    expect(await lastHeartbeat(storage.db, INGEST_SERVICE)).toBeNull()

    const before = Date.now()
    const heartbeat = startHeartbeat(storage.db, 50)
    cleanups.push(() => heartbeat.stop())
    await heartbeat.first
    const first = await lastHeartbeat(storage.db, INGEST_SERVICE)
    expect(first?.beatAt).toBeGreaterThanOrEqual(before)

    await expect.poll(async () => (await lastHeartbeat(storage.db, INGEST_SERVICE))?.beatAt).toBeGreaterThan(first!.beatAt)
  })
})
