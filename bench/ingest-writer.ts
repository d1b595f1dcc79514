/**
 * The ingest writer's CPU per message, on the thread every message waits for: mail-ingest's SQLite writer (its real
 * code, `storage.messageWriter`) storing 2 KB and 20 KB mails in group commits of 8, with SQLite's trigram index
 * filled apart by the indexer (`indexSearchStep`, another thread in mail-ingest: its CPU is given on its own line)
 * against the same writer with the index filled inside each commit by a trigger, as before migration 000701. CPU time
 * of this one thread, not wall time: the cases alternate A B B A per round, and a busy machine slows both alike.
 *
 *   pnpm bench ingest-writer          (or: cd bench && pnpm exec tsx ingest-writer.ts)
 *   BENCH_REPEATS=3 …          rounds (A B B A each)
 *   BENCH_SCALE=0.2 …          fewer messages per case
 *   BENCH_NO_WRITE=1 …         print without writing BENCHMARKS.md
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { migrateToLatest, openStorage, type MessageToStore } from '@tempbox/db'
import { BenchRun } from './lib/bench-run.js'
import { writeBenchmarkSection } from './lib/benchmarks-md.js'
import { fmt, median, spread } from './lib/stats.js'

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
// Kysely's sql tag, from packages/db's own dependency rather than pinned twice.
const { sql } = createRequire(join(REPO_ROOT, 'packages/db/package.json'))('kysely') as {
  sql: (strings: TemplateStringsArray, ...values: unknown[]) => { execute: (db: unknown) => Promise<unknown> }
}
const bench = new BenchRun('ingest-writer')
const SCALE = bench.number('BENCH_SCALE', 1)
const REPEATS = Math.max(1, Math.round(bench.number('BENCH_REPEATS', 3)))
const BATCH = 8
const INBOXES = 64
const SIZES = [
  { name: '2 KB', bytes: 2_000, messages: Math.round(8_192 * SCALE) },
  { name: '20 KB', bytes: 20_000, messages: Math.round(2_048 * SCALE) },
]
const WORDS = 'lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua'.split(' ')

type Case = 'apart' | 'in the commit'
const cpuMs = () => {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1000
}

/** A distinct text of about `bytes` (a number every few words: real mail's trigrams are not all the same few). */
function text(i: number, bytes: number): string {
  const words: string[] = []
  let length = 0
  for (let k = 0; length < bytes; k++) {
    const word = WORDS[(i * 7 + k * 13) % WORDS.length]! + (k % 9 === 0 ? String(i * 31 + k) : '')
    words.push(word)
    length += word.length + 1
  }
  return words.join(' ')
}

function message(i: number, bytes: number, inboxIds: number[]): MessageToStore {
  const body = text(i, bytes)
  const subject = `Order ${i} confirmed`
  return {
    inboxIds: [inboxIds[i % inboxIds.length]!],
    source: { raw: Buffer.from(`From: Shop <shop@example.test>\r\nSubject: ${subject}\r\n\r\n`), bodyIsText: true, size: bytes + 60 },
    receivedAt: Date.now(),
    derived: { version: 1, preview: body.slice(0, 120), htmlText: null, codes: [], links: [], safeHtml: null, hasRemoteContent: false, htmlWithheld: null },
    parsed: { from: { name: 'Shop', address: 'shop@example.test' }, recipients: [{ name: '', address: 'reader@bench.test' }], subject, text: body, html: null, sentAt: null, headers: [['subject', subject]], attachments: [] },
    deliveries: [{ tag: null, reason: 'accepted' }],
  }
}

/** Writer CPU ms per message, and (apart) the indexer's, for one fresh database. */
async function run(kind: Case, size: (typeof SIZES)[number]): Promise<{ writer: number; indexer: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'tempbox-writer-'))
  const storage = openStorage({ path: join(dir, 'tempbox.sqlite') })
  try {
    await migrateToLatest(storage.db)
    if (kind === 'in the commit') {
      // Migration 2026_11_28_000601's shape: the FTS5 table in the database, filled by a trigger in every commit.
      await sql`CREATE VIRTUAL TABLE message_search_index USING fts5 (subject, from_name, from_address, body,
        tokenize = 'trigram case_sensitive 1', detail = none, content = '', contentless_delete = 1)`.execute(storage.db)
      await sql`CREATE TRIGGER message_search_indexed AFTER INSERT ON message_search BEGIN
        INSERT INTO message_search_index (rowid, subject, from_name, from_address, body)
        VALUES (new.message_content_id, new.subject, new.from_name, new.from_address, new.body); END`.execute(storage.db)
    }
    const now = Date.now()
    await storage.db.insertInto('inbox')
      .values(Array.from({ length: INBOXES }, (_, i) => ({ address: `r${i}@bench.test`, local_part: `r${i}`, domain: 'bench.test', created_at: now, expires_at: now + 86_400_000 })))
      .execute()
    const inboxIds = (await storage.db.selectFrom('inbox').select('id').execute()).map((r) => Number(r.id))
    const write = storage.messageWriter()
    const messages = Array.from({ length: size.messages }, (_, i) => message(i, size.bytes, inboxIds))
    const started = cpuMs()
    for (let i = 0; i < messages.length; i += BATCH) await write(messages.slice(i, i + BATCH))
    const writer = (cpuMs() - started) / messages.length
    if (kind === 'in the commit') return { writer, indexer: 0 }
    const indexing = cpuMs()
    while ((await storage.indexSearchStep())?.more);
    return { writer, indexer: (cpuMs() - indexing) / messages.length }
  } finally {
    await storage.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

const results = new Map<string, { writer: number[]; indexer: number[] }>()
for (let round = 0; round < REPEATS; round++) {
  for (const size of SIZES) {
    for (const kind of ['apart', 'in the commit', 'in the commit', 'apart'] as Case[]) {
      const r = await run(kind, size)
      const key = `${size.name}|${kind}`
      const into = results.get(key) ?? { writer: [], indexer: [] }
      into.writer.push(r.writer)
      into.indexer.push(r.indexer)
      results.set(key, into)
      console.log(`[bench] ${size.name} ${kind.padEnd(13)} round ${round + 1}: writer ${r.writer.toFixed(3)} ms/msg${kind === 'apart' ? `, indexer ${r.indexer.toFixed(3)} ms/msg` : ''}`)
    }
  }
}

const rows = SIZES.map((size) => {
  const apart = results.get(`${size.name}|apart`)!
  const inCommit = results.get(`${size.name}|in the commit`)!
  return `| ${size.name} | ${spread(inCommit.writer, 3)} | ${spread(apart.writer, 3)} | ${fmt(median(apart.writer) / median(inCommit.writer), 2)}× | ${spread(apart.indexer, 3)} |`
})
const body = [
  bench.measured(),
  '',
  `mail-ingest's SQLite writer (storage.messageWriter, its real code) in this one thread, commits of ${BATCH} messages over ${INBOXES} inboxes, each with its delivery-log entry; ${SIZES.map((s) => `${s.messages} × ${s.name}`).join(', ')} per case; A B B A per round, ${REPEATS} round${REPEATS > 1 ? 's' : ''}, a fresh file each. CPU ms per message of this thread (median, range in brackets): the writer runs under the database's one write lock, so its CPU is what every message waits for (the fsync comes on top); the indexer (a thread of its own in mail-ingest, its own file) runs beside it.`,
  '',
  '| mail | writer CPU ms/msg, index in the commit (before) | writer CPU ms/msg, index apart (now) | now / before | indexer CPU ms/msg (its own thread) |',
  '|---|---:|---:|---:|---:|',
  ...rows,
].join('\n')
console.log(`\n${body}`)
if (!process.env.BENCH_NO_WRITE) writeBenchmarkSection(REPO_ROOT, '## Ingest writer: the search index in the commit or apart (issue 31)', body)
