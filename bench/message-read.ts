/**
 * Where the API's CPU per message read goes, query by query, in this process over a real SQLite file: long text mails
 * (as `pnpm bench hostile` sends them) stored by ingest's own parser, derivation and writer, then read with the API's
 * repository functions. Also, A/B in the same run, reading the same 256 K-character text head from where it lived
 * before migration 2026_11_24_002101 (the last column of `message_content`, after `text` and `raw`) and from where it
 * lives now (`message_text_head`). Writes `## Message read: CPU per query` in BENCHMARKS.md.
 *
 *   pnpm bench message-read    BENCH_READS=40 (reads per measure)  BENCH_REPEATS=3  BENCH_NO_WRITE=1
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import nodemailer from 'nodemailer'
import { createDb, migrateToLatest, openStorage, toStoredSource } from '@tempbox/db'
import { findMessage, findViewHeaders, findViewText } from '../apps/api/src/repositories/message-repository.js'
import { deriveView } from '../apps/mail-ingest/src/derive-view.js'
import { parseMessage } from '../apps/mail-ingest/src/parse-message.js'
import { BenchRun } from './lib/bench-run.js'
import { writeBenchmarkSection } from './lib/benchmarks-md.js'
import { spread } from './lib/stats.js'

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const bench = new BenchRun('message-read')
const READS = Math.max(5, bench.number('BENCH_READS', 40))
const REPEATS = Math.max(1, Math.round(bench.number('BENCH_REPEATS', 3)))
/** The API's default MESSAGE_TEXT_MAX_CHARS. */
const VIEW_CHARS = 256 * 1024

const MAILS: Array<[string, string]> = [
  ['a 9 MB single-line body', `code 482913 ${'x'.repeat(9 * 1024 * 1024)}`],
  ['a 250 KB single-line body', 'x'.repeat(250_000)],
  ['a 2 KB text', 'Your code is 482913.\n'.repeat(100)],
]

const dir = mkdtempSync(join(tmpdir(), 'tempbox-bench-read-'))
const { db, sqlite } = createDb({ path: join(dir, 'tempbox.sqlite') })
await migrateToLatest(db)
await db.insertInto('inbox').values({ address: 'read@bench.test', local_part: 'read', domain: 'bench.test', created_at: 0, expires_at: Date.now() + 86_400_000 }).execute()
const composer = nodemailer.createTransport({ streamTransport: true, buffer: true })
const writer = openStorage({ path: join(dir, 'tempbox.sqlite') })
const write = writer.messageWriter()
const stored: Array<{ name: string; messageId: number; contentId: number; hasHead: boolean }> = []
for (const [name, text] of MAILS) {
  const raw = (await composer.sendMail({ from: 'sender@bench.test', to: 'read@bench.test', subject: name, text })).message as Buffer
  const parsed = await parseMessage(raw)
  const [contentId] = await write([{ inboxIds: [1], source: toStoredSource(raw, parsed.text, parsed.plainBodyStart), parsed, receivedAt: Date.now(), derived: deriveView(parsed) }])
  const { id } = await db.selectFrom('message').select('id').where('message_content_id', '=', contentId!).executeTakeFirstOrThrow()
  stored.push({ name, messageId: id, contentId: contentId!, hasHead: text.length > VIEW_CHARS })
  // The first read stores the head, as it would for the first reader.
  await findViewText(db, contentId!, VIEW_CHARS)
}
// The same heads, also where they were stored before the migration (the column is still there, always NULL otherwise).
sqlite.prepare('UPDATE message_content SET text_head = (SELECT text FROM message_text_head h WHERE h.message_content_id = message_content.id)').run()

const cpuPerCall = async (run: () => unknown): Promise<number> => {
  await run()
  const start = process.cpuUsage()
  for (let i = 0; i < READS; i++) await run()
  const used = process.cpuUsage(start)
  return (used.user + used.system) / 1000 / READS
}

const oldHead = sqlite.prepare<[number], { text_head: string | null }>('SELECT text_head FROM message_content WHERE id = ?')
const newHead = sqlite.prepare<[number], { text: string }>('SELECT text FROM message_text_head WHERE message_content_id = ?')
const MEASURES: Array<[string, (m: (typeof stored)[number]) => unknown, onlyWithHead?: boolean]> = [
  ['findMessage', (m) => findMessage(db, 1, m.messageId)],
  ['findViewText', (m) => findViewText(db, m.contentId, VIEW_CHARS)],
  ['findViewHeaders', (m) => findViewHeaders(db, m.contentId)],
  ['its head as the last column of message_content (before)', (m) => oldHead.get(m.contentId), true],
  ['its head in message_text_head (now)', (m) => newHead.get(m.contentId), true],
]
const results = new Map<string, number[]>()
for (let round = 0; round < REPEATS; round++) {
  for (const m of stored) {
    // ABBA: the measures run in reverse order every other round, so the before/after pair shares the drift.
    for (const [measure, run, onlyWithHead] of round % 2 ? [...MEASURES].reverse() : MEASURES) {
      if (onlyWithHead && !m.hasHead) continue
      const key = `${m.name}\t${measure}`
      results.set(key, [...(results.get(key) ?? []), await cpuPerCall(() => run(m))])
    }
  }
}
await writer.close()
await db.destroy()
rmSync(dir, { recursive: true, force: true })

const lines = [
  bench.measured(),
  '',
  `CPU per call (user + system, this process, ${READS} calls after one untimed), median of ${REPEATS} rounds with the range in brackets. The mails are stored by ingest's parser, derivation and writer in a fresh SQLite file and read with the API's repository functions; a view carries at most ${VIEW_CHARS / 1024} K characters of text (MESSAGE_TEXT_MAX_CHARS). For the mail whose text is longer than that, the last two rows read the same stored head from its old and its new place, in the same rounds.`,
  '',
  '| mail | query | ms per call |',
  '|---|---|---:|',
  ...[...results].map(([key, values]) => {
    const [mail, measure] = key.split('\t')
    return `| ${mail} | ${measure} | ${spread(values, 2)} |`
  }),
]
const section = lines.join('\n')
console.log(section)
if (!process.env.BENCH_NO_WRITE) writeBenchmarkSection(REPO_ROOT, '## Message read: CPU per query', section)
