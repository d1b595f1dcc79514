/** Tempbox's mail-ingest as a bench target, on SQLite or on a PostgreSQL server, and the read-back of its store. */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fullSource, selectMessagesWithContent, type Db } from '@tempbox/db'
import { createTestDatabase, type PostgresServer } from '@tempbox/db/testing/postgres'
import { startIngest, startIngestOnPostgres, type IngestProcess } from '../ingest-process.js'
import { benchId } from './messages.js'
import type { Target } from './run-scenario.js'
import { DOMAIN, INBOX_COUNT, REPO_ROOT } from './settings.js'

export async function startTempbox(name = 'Tempbox', env: Record<string, string> = {}, ingestRoot?: string, nodeArgs?: string): Promise<Target> {
  const ingest = await startIngest(REPO_ROOT, DOMAIN, Array.from({ length: INBOX_COUNT }, (_, i) => `bench${i}`), env, ingestRoot, nodeArgs)
  return { name, ports: [ingest.port], pids: [ingest.pid], recipient: (i) => `bench${i % INBOX_COUNT}@${DOMAIN}`, takeStored: () => takeStoredFrom(ingest.db, ingest.sqlite), stop: ingest.stop }
}

export const POSTGRES_NAME = 'Tempbox on PostgreSQL'
export const POSTGRES_BASELINE_NAME = 'Tempbox (baseline) on PostgreSQL'
export const POSTGRES_TWO_NODES_NAME = 'Tempbox on PostgreSQL, 2 ingest nodes'
/** msg/s at 2 KB × 16 conns, synchronous_commit on (issue 14). */
export const POSTGRES_TARGET = 1000

/**
 * `nodes` mail-ingest processes on one database of its own on `server`, as ingest nodes behind a balancer; the
 * server's CPU is counted beside theirs.
 */
export async function startTempboxOnPostgres(server: PostgresServer, name = POSTGRES_NAME, ingestRoot?: string, nodes = 1): Promise<Target> {
  const url = await createTestDatabase(server.url, 'bench')
  const first = await startIngestOnPostgres(REPO_ROOT, DOMAIN, Array.from({ length: INBOX_COUNT }, (_, i) => `bench${i}`), url, {}, ingestRoot)
  const all = [first]
  // Started one after another: the first has migrated the database, and the inboxes are there for every node.
  for (let n = 1; n < nodes; n++) all.push(await startIngestOnPostgres(REPO_ROOT, DOMAIN, [], url, {}, ingestRoot))
  return {
    name, ports: all.map((i) => i.port), pids: all.map((i) => i.pid), serverPid: server.pid, recipient: (i) => `bench${i % INBOX_COUNT}@${DOMAIN}`,
    takeStored: () => takeStoredFrom(first.db),
    stop: async () => {
      for (const ingest of all) await ingest.stop()
    },
  }
}

/** Every message stored since the last call, by bench id; then the store is emptied. */
async function takeStoredFrom(db: Db, sqlite?: IngestProcess['sqlite']): Promise<{ byId: Map<string, Buffer>; unnamed: number }> {
  const byId = new Map<string, Buffer>()
  let unnamed = 0
  // A SQLite baseline from before content was stored once (2026-11-23) keeps raw and text in the message row itself.
  const oldRows = sqlite && sqlite.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'message_content'").get() === undefined
    ? sqlite.prepare<[number], { id: number; raw: Buffer; text: string | null; raw_body_is_text: number }>(
      'SELECT id, raw, text, raw_body_is_text FROM message WHERE id > ? ORDER BY id LIMIT 500',
    )
    : null
  // A page at a time: a run of 100 KB messages holds hundreds of MB.
  for (let after = 0; ;) {
    const rows = oldRows
      ? oldRows.all(after)
      : await selectMessagesWithContent(db)
        .select(['message.id', 'raw', 'text', 'raw_body_is_text'])
        .where('message.id', '>', after)
        .orderBy('message.id')
        .limit(500)
        .execute()
    if (rows.length === 0) break
    for (const row of rows) {
      const source = fullSource(row)
      const id = benchId(source)
      if (id === undefined) unnamed++
      else byId.set(id, source)
    }
    after = rows.at(-1)!.id
  }
  // Emptied like MailDev's store, so no run starts on a file (and inbox quotas) filled by the ones before.
  await db.deleteFrom('message').execute()
  return { byId, unnamed }
}

/** SPF and DMARC records for the benchmark's sender domain, so every message takes the check's SPF and DMARC paths. */
export function writeSenderZone(): string {
  const path = join(mkdtempSync(join(tmpdir(), 'tempbox-bench-dns-')), 'dns.json')
  writeFileSync(path, JSON.stringify({ 'sender.test': { TXT: [['v=spf1 ip4:127.0.0.1 -all']] }, '_dmarc.sender.test': { TXT: [['v=DMARC1; p=none']] } }))
  return path
}
