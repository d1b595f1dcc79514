/**
 * Disk taken by one message sent to many of our addresses at once (one SMTP transaction, RCPT TO each of them): ingest
 * stores the content once and one listing row per inbox, so the database should grow by about one message, not one per
 * recipient. Real mail-ingest over real SMTP into a fresh file; growth is (page_count − freelist_count) × page_size
 * before and after. Writes `## Disk for one message to many addresses` in BENCHMARKS.md.
 *
 *   pnpm bench fanout          (or: cd bench && pnpm exec tsx fanout-storage.ts)
 *   BENCH_RECIPIENTS=100 …     recipients of the message (ingest accepts up to SMTP_MAX_RECIPIENTS, 100 by default)
 *   BENCH_NO_WRITE=1 …         print without writing BENCHMARKS.md
 */
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import nodemailer from 'nodemailer'
import { BenchRun } from './lib/bench-run.js'
import { writeBenchmarkSection } from './lib/benchmarks-md.js'
import { startIngest } from './lib/ingest-process.js'

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const DOMAIN = 'bench.tempbox.local'
const bench = new BenchRun('fanout')
const RECIPIENTS = Math.max(1, Math.round(bench.number('BENCH_RECIPIENTS', 100)))

// A newsletter-like message: a 100 KB text part (quoted-printable, as nodemailer encodes non-ASCII text) and a 50 KB attachment.
const paragraph = 'Grüße aus dem Büro — this week in numbers, links and a café menu. '
const composer = nodemailer.createTransport({ streamTransport: true, buffer: true })
const locals = Array.from({ length: RECIPIENTS }, (_, i) => `fan${i}`)
const raw = (await composer.sendMail({
  from: 'news@sender.test',
  to: locals.map((l) => `${l}@${DOMAIN}`),
  subject: 'Weekly digest',
  text: paragraph.repeat(Math.ceil((100 * 1024) / paragraph.length)),
  attachments: [{ filename: 'report.bin', content: Buffer.alloc(50 * 1024, 'attachment bytes ') }],
})).message as Buffer

const ingest = await startIngest(REPO_ROOT, DOMAIN, locals, { SMTP_MAX_RECIPIENTS: String(Math.max(100, RECIPIENTS)) })
try {
  const pragma = (name: string) => Number(ingest.sqlite.pragma(name, { simple: true }))
  const usedBytes = () => (pragma('page_count') - pragma('freelist_count')) * pragma('page_size')
  const before = usedBytes()
  const smtp = nodemailer.createTransport({ host: '127.0.0.1', port: ingest.port, secure: false, ignoreTLS: true })
  const info = await smtp.sendMail({ envelope: { from: 'news@sender.test', to: locals.map((l) => `${l}@${DOMAIN}`) }, raw })
  smtp.close()
  const after = usedBytes()
  const rows = await ingest.db.selectFrom('message').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
  const contents = await ingest.db.selectFrom('message_content').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
  const growth = after - before
  const body = [
    bench.measured(),
    '',
    `One message of ${raw.length.toLocaleString('en-US')} bytes (a 100 KB text part, quoted-printable, and a 50 KB attachment, base64) sent once over SMTP to ${RECIPIENTS} of our inboxes (reply: \`${info.response}\`), into a fresh database file; growth is (page_count − freelist_count) × page_size before and after.`,
    '',
    '| stored | growth of the database | growth ÷ message size |',
    '|---|---:|---:|',
    `| ${contents.n} \`message_content\` row${Number(contents.n) === 1 ? '' : 's'}, ${rows.n} \`message\` rows | ${growth.toLocaleString('en-US')} bytes | ${(growth / raw.length).toFixed(2)} |`,
    '',
    `${RECIPIENTS} copies would be ${(RECIPIENTS * raw.length).toLocaleString('en-US')} bytes of source alone.`,
  ].join('\n')
  console.log(body)
  if (!process.env.BENCH_NO_WRITE) writeBenchmarkSection(REPO_ROOT, '## Disk for one message to many addresses', body)
} finally {
  await ingest.stop()
}
