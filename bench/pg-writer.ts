/**
 * PostgreSQL's ingest writer alone (no SMTP, no parsing): batches of 2 KB messages through `storage.messageWriter`, as
 * the store worker sends them, one batch at a time on a throwaway server (fsync and synchronous_commit on). Gives the
 * writer's CPU per message in this process (pg's protocol work and ours) and in the server's processes, so a change
 * to the statements can be judged without the noise of the whole pipeline. Prints its figures (BENCHMARKS.md's PostgreSQL
 * ingest notes quote them); the end-to-end figures are `BENCH_POSTGRES=1 pnpm bench smtp`'s.
 *
 *   cd bench && pnpm exec tsx pg-writer.ts
 *   BENCH_BATCHES=400 BENCH_BATCH=16 BENCH_ROUNDS=3 …
 *   BENCH_BASELINE_ROOT=/path/to/other/checkout …  that checkout's writer too, on the same server, rounds interleaved
 */
import { join } from 'node:path'
import { createTestDatabase, startPostgres } from '@tempbox/db/testing/postgres'
import type { MessageToStore, Storage } from '@tempbox/db'
import { treeCpuMs } from './lib/processes.js'
import { fmt, median } from './lib/stats.js'

const BATCHES = Number(process.env.BENCH_BATCHES ?? '400')
const BATCH = Number(process.env.BENCH_BATCH ?? '16')
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? '3')
const INBOXES = 64

type Db = typeof import('@tempbox/db')

async function loadDb(root?: string): Promise<Db> {
  if (!root) return import('@tempbox/db')
  return import(join(root, 'packages/db/src/index.ts')) as Promise<Db>
}

const text = Buffer.from('Lorem ipsum dolor sit amet, consectetur adipiscing elit.\r\n'.repeat(30))

function message(i: number, inboxIds: number[]): MessageToStore {
  const head = `X-Bench-Id: w-${i}\r\nFrom: Load <load@sender.test>\r\nTo: bench${i % INBOXES}@bench.tempbox.local\r\nSubject: bench message ${i}\r\nDate: Wed, 25 Nov 2026 00:00:00 +0000\r\nMessage-ID: <${i}@sender.test>\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n`
  return {
    inboxIds,
    parsed: {
      from: { name: 'Load', address: 'load@sender.test' },
      recipients: [{ name: '', address: `bench${i % INBOXES}@bench.tempbox.local` }],
      subject: `bench message ${i}`,
      text,
      html: null,
      sentAt: 1795564800000,
      headers: [['x-bench-id', `w-${i}`], ['from', 'Load <load@sender.test>'], ['to', `bench${i % INBOXES}@bench.tempbox.local`], ['subject', `bench message ${i}`], ['date', 'Wed, 25 Nov 2026 00:00:00 +0000'], ['message-id', `<${i}@sender.test>`], ['mime-version', '1.0'], ['content-type', 'text/plain; charset=utf-8']],
      attachments: [],
    },
    source: { raw: Buffer.from(head), bodyIsText: true, size: head.length + text.length },
    receivedAt: Date.now(),
    derived: { version: 1, preview: text.subarray(0, 200).toString(), htmlText: null, codes: [], links: [], safeHtml: null, hasRemoteContent: false, htmlWithheld: null },
    envelope: {},
  }
}

interface Target { name: string; storage: Storage; write: (m: MessageToStore[]) => Promise<number[]>; inboxIds: number[]; ingest: number[]; server: number[]; bytesBefore: number; written: number }

/** The database's files on disk (tables, indexes, TOAST; not the WAL): what a day of mail costs in storage. */
async function databaseBytes(storage: Storage): Promise<number> {
  const row = await storage.db.selectNoFrom((eb) => eb.fn<string>('pg_database_size', [eb.fn('current_database', [])]).as('bytes')).executeTakeFirstOrThrow()
  return Number(row.bytes)
}

const server = await startPostgres()
try {
  const targets: Target[] = []
  for (const [name, root] of [['this checkout', undefined], ...(process.env.BENCH_BASELINE_ROOT ? [['baseline', process.env.BENCH_BASELINE_ROOT]] : [])] as [string, string | undefined][]) {
    const db = await loadDb(root)
    const url = await createTestDatabase(server.url, 'writer')
    const storage = db.openStorage({ path: '', url, poolSize: 2 })
    await db.migrateToLatest(storage.db)
    const now = Date.now()
    const rows = await storage.db.insertInto('inbox')
      .values(Array.from({ length: INBOXES }, (_, i) => ({ address: `bench${i}@bench.tempbox.local`, local_part: `bench${i}`, domain: 'bench.tempbox.local', created_at: now, expires_at: now + 86_400_000 })))
      .returning('id').execute()
    const write = storage.messageWriter({ databasePath: '', maxDatabaseBytes: 0, minFreeDiskBytes: 0, maxMessagesPerInbox: 1e9, maxInboxBytes: 1e12, textHeadChars: 256 * 1024 })
    targets.push({ name, storage, write, inboxIds: rows.map((r) => Number(r.id)), ingest: [], server: [], bytesBefore: await databaseBytes(storage), written: 0 })
  }
  let n = 0
  for (let round = -1; round < ROUNDS; round++) {
    for (const t of targets) {
      const batches = round < 0 ? 50 : BATCHES
      const cpu0 = process.cpuUsage()
      const s0 = treeCpuMs(server.pid)
      for (let b = 0; b < batches; b++) await t.write(Array.from({ length: BATCH }, () => message(n, [t.inboxIds[n++ % INBOXES]!])))
      const cpu = process.cpuUsage(cpu0)
      const messages = batches * BATCH
      t.written += messages
      if (round < 0) continue
      t.ingest.push((cpu.user + cpu.system) / 1000 / messages)
      t.server.push((treeCpuMs(server.pid) - s0) / messages)
      console.log(`${t.name}: round ${round + 1}: writer ${fmt(t.ingest.at(-1)!, 3)} ms/msg, server ${fmt(t.server.at(-1)!, 3)} ms/msg`)
    }
  }
  for (const t of targets) console.log(`${t.name}: median writer ${fmt(median(t.ingest), 3)} ms/msg, server ${fmt(median(t.server), 3)} ms/msg (batches of ${BATCH})`)
  for (const t of targets) console.log(`${t.name}: database grew ${fmt((await databaseBytes(t.storage) - t.bytesBefore) / t.written, 0)} bytes per message over ${t.written} messages of ${text.length + 200} bytes`)
  for (const t of targets) await t.storage.close()
} finally {
  await server.stop()
}
