/**
 * Search in a full inbox, and what it costs everyone else (issue 26): an inbox filled to MAX_INBOX_BYTES (100 MB by
 * default) with 1,000 mails of ~100 KB non-ASCII text, three clients searching it back to back with 12 non-ASCII
 * terms that match nothing (3+ letters: the trigram index; then 2 letters: every copy read whole), and another client asking `/api/health/live`
 * one request after the other meanwhile. Real api process, SQLite and PostgreSQL in turn; the mail is stored with
 * the ingest writer (mail-ingest's code), so each message has its search copy as real mail does.
 *
 *   pnpm bench search
 *   BENCH_SECONDS=20 …  BENCH_MESSAGES=1000 …  BENCH_NO_POSTGRES=1 …  BENCH_NO_WRITE=1 …
 */
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { openStorage, toStoredSource, type MessageToStore } from '@tempbox/db'
import { createTestDatabase, startPostgres } from '@tempbox/db/testing/postgres'
import { deriveParsed } from '@tempbox/mail-derive'
import { generateAddress, startApiStack, type ApiStack } from './lib/api-stack.js'
import { BenchRun } from './lib/bench-run.js'
import { percentile, writeBenchmarkSection } from './lib/benchmarks-md.js'

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const DOMAIN = 'bench.tempbox.local'
const bench = new BenchRun('search')
const SECONDS = bench.number('BENCH_SECONDS', 20)
const MESSAGES = bench.number('BENCH_MESSAGES', 1000)
const ON_POSTGRES = !bench.flag('BENCH_NO_POSTGRES')
const INBOX_BYTES = 100 * 1024 * 1024
const SEARCHERS = 3
/** Twelve terms (MAX_SEARCH_TERMS), each with letters beyond ASCII, none in the mail: looked up in the trigram index. */
const QUERY = ['ÄÖÜx', 'éèêx', 'ßẞx', 'Ωμέγαx', 'Ñandúx', 'Łódźx', 'Ørex', 'Čajx', 'Ğüx', 'Şix', 'Ÿéx', 'Ђакx'].join(' ')
/** The same, two letters each: too short for a trigram index, so every copy is read whole (the sliced scan). */
const SHORT_QUERY = ['ÄÖ', 'éè', 'ßẞ', 'Ωμ', 'Ñú', 'Łź', 'Øå', 'Čj', 'Ğü', 'Şi', 'Ÿé', 'Ђа'].join(' ')

/** A mail of about `bytes` bytes of German and French text. */
function mail(i: number, bytes: number): { subject: string; text: string } {
  const line = 'Grüße aus Köln: die Überweisung für das Café in der Straße Nº 5 ist bestätigt — élève, garçon, Ærø. '
  return { subject: `Rechnung Nr. ${i} — Überweisung bestätigt`, text: line.repeat(Math.floor(bytes / Buffer.byteLength(line))) }
}

/** Fills the inbox to INBOX_BYTES through the ingest writer, in batches as the store worker commits them. */
async function fill(stack: ApiStack, address: string, url: string | undefined): Promise<void> {
  const storage = openStorage({ path: stack.dbPath, ...(url ? { url } : {}), poolSize: 1 })
  try {
    const inboxId = Number((await storage.db.selectFrom('inbox').select('id').where('address', '=', address).executeTakeFirstOrThrow()).id)
    const write = storage.messageWriter()
    const perMessage = Math.floor(INBOX_BYTES / MESSAGES) - 400
    for (let start = 0; start < MESSAGES; start += 50) {
      const batch: MessageToStore[] = []
      for (let i = start; i < Math.min(MESSAGES, start + 50); i++) {
        const { subject, text } = mail(i, perMessage)
        const raw = Buffer.from(`From: Bücherei <buch@example.test>\r\nSubject: ${subject}\r\n\r\n${text}\r\n`)
        const parsed = { from: { name: 'Bücherei', address: 'buch@example.test' }, recipients: [{ name: '', address }], subject, text, html: null, sentAt: null, headers: [], attachments: [] }
        const { failures: _failures, ...derived } = deriveParsed({ ...parsed, html: null })
        batch.push({ inboxIds: [inboxId], parsed, source: toStoredSource(raw, text), receivedAt: Date.now(), derived })
      }
      await write(batch)
    }
    // What mail-ingest's indexer thread does after each commit (SQLite; PostgreSQL keeps its GIN index itself).
    while ((await storage.indexSearchStep())?.more);
  } finally {
    await storage.close()
  }
}

interface Result {
  engine: string
  query: string
  health: number[]
  searches: number[]
  cut: number
  healthDuringSearches: number
}

async function measure(engine: string, stack: ApiStack, address: string, query: string): Promise<Result> {
  const url = `${stack.apiUrl}/api/email/${encodeURIComponent(address)}?q=${encodeURIComponent(query)}`
  // Warm up: the first search reads the copies from disk.
  await (await fetch(url)).arrayBuffer()
  const until = performance.now() + SECONDS * 1000
  const searches: number[] = []
  const health: number[] = []
  let cut = 0
  let running = SEARCHERS
  const searchers = Array.from({ length: SEARCHERS }, async () => {
    while (performance.now() < until) {
      const t = performance.now()
      const res = await fetch(url)
      const body = (await res.json()) as { total?: number; searchCut?: boolean }
      if (res.status !== 200) throw new Error(`search: ${res.status} ${JSON.stringify(body)}`)
      searches.push(performance.now() - t)
      if (body.searchCut) cut++
    }
    running--
  })
  while (running > 0) {
    const t = performance.now()
    const res = await fetch(`${stack.apiUrl}/api/health/live`)
    await res.arrayBuffer()
    if (res.status !== 200) throw new Error(`health: ${res.status}`)
    if (running > 0) health.push(performance.now() - t)
  }
  await Promise.all(searchers)
  health.sort((a, b) => a - b)
  searches.sort((a, b) => a - b)
  return { engine, query: query === QUERY ? '12 terms, 3+ letters (index)' : '12 terms, 2 letters (scan)', health, searches, cut, healthDuringSearches: health.length }
}

// Every search client is this process (one IP): the per-client search limit is lifted so the three keep searching.
const env = { MAX_INBOX_BYTES: String(INBOX_BYTES + 1024 * 1024), SEARCH_RATE_LIMIT_PER_MINUTE: '1000000', API_PROCESSES: '1' }
const results: Result[] = []
{
  const stack = await startApiStack(REPO_ROOT, { withIngest: false, domain: DOMAIN, env })
  try {
    const address = await generateAddress(stack.apiUrl)
    await fill(stack, address, undefined)
    results.push(await measure('SQLite', stack, address, QUERY), await measure('SQLite', stack, address, SHORT_QUERY))
  } finally {
    await stack.stop()
  }
}
if (ON_POSTGRES) {
  const server = await startPostgres()
  try {
    const url = await createTestDatabase(server.url, 'inbox_search')
    const stack = await startApiStack(REPO_ROOT, { withIngest: false, domain: DOMAIN, env: { ...env, DATABASE_URL: url } })
    try {
      const address = await generateAddress(stack.apiUrl)
      await fill(stack, address, url)
      results.push(await measure('PostgreSQL', stack, address, QUERY), await measure('PostgreSQL', stack, address, SHORT_QUERY))
    } finally {
      await stack.stop()
    }
  } finally {
    await server.stop()
  }
}

const ms = (v: number) => v.toFixed(1)
const rows = results.map(
  (r) =>
    `| ${r.engine} | ${r.query} | ${r.healthDuringSearches} | ${ms(percentile(r.health, 50))} | ${ms(percentile(r.health, 99))} | ${ms(r.health[r.health.length - 1] ?? NaN)} | ` +
    `${r.searches.length} | ${ms(percentile(r.searches, 50))} | ${ms(percentile(r.searches, 99))} | ${r.cut} |`,
)
const table =
  '| engine | query | health answers | health p50 ms | health p99 ms | health max ms | searches | search p50 ms | search p99 ms | cut by the budget |\n' +
  `|---|---|---|---|---|---|---|---|---|---|\n${rows.join('\n')}`
console.log(table)
if (!process.env.BENCH_NO_WRITE) {
  writeBenchmarkSection(
    REPO_ROOT,
    '## Inbox search: a full 100 MB inbox, non-ASCII terms (issue 26)',
    `${bench.measured()} One inbox filled to 100 MB (MAX_INBOX_BYTES) with ${MESSAGES} ` +
      `mails of ~${Math.round(INBOX_BYTES / MESSAGES / 1024)} KB German/French text, stored by the ingest writer (so each has its ` +
      `64 K-character search copy); ${SEARCHERS} clients search it back to back for ${SECONDS} s with 12 non-ASCII terms that ` +
      'match nothing, while another client asks `/api/health/live` one request after the other: terms of 3+ letters (the ' +
      'trigram index answers: FTS5 on SQLite, pg_trgm on PostgreSQL), then 2-letter terms (no index can help: every copy ' +
      'is read whole, in ~5 ms slices). ' +
      'Real api process (one), default SEARCH_TIME_BUDGET_MS (2000); the search rate limit is lifted (all clients are one IP). ' +
      'Target: health p99 ≤ 50 ms.\n\n' +
      table,
  )
}
