import { createDb, openSearchIndexForReading, searchIndexPath, searchInboxPage } from '@tempbox/db'
import nodemailer from 'nodemailer'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { openTestDatabase, startIngest } from './test-ingest.js'

const DOMAIN = 'tempbox.test'
const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** Content ids the index file beside the database holds for a trigram. */
function indexed(indexPath: string, gram: string): number[] {
  const index = openSearchIndexForReading(indexPath)
  if (!index) return []
  try {
    return (index.prepare('SELECT rowid FROM message_search_index WHERE message_search_index MATCH ?').all(`"${gram}"`) as { rowid: number }[]).map((r) => r.rowid)
  } finally {
    index.close()
  }
}

/** A DNS in which no name exists: the sender check answers at once, without the network. */
const NO_DNS = new URL('./fixtures/dns-no-names.json', import.meta.url).pathname

describe.each([
  // The index is filled by a thread of its own (search-index-worker.ts), the store worker's commits going on beside it.
  ['parse, store and search-index workers', {}],
  ['parse, store and search-index workers, the store worker checking senders', { MAIL_AUTH: 'on', MAIL_AUTH_DNS_FIXTURE: NO_DNS }],
  // A small text is parsed on the store worker by default (SMTP_PARSE_ON_STORE_MAX_BYTES); here the parse worker parses it.
  ['parse, store and search-index workers, every message through the parse worker', { SMTP_PARSE_ON_STORE_MAX_BYTES: '0' }],
  ['the in-process pipeline', { SMTP_PARSE_WORKERS: '0' }],
])('SQLite search index, with %s', (_, extraEnv) => {
  // Boots the real worker threads (bundled from source here): allowed longer than a protocol test on a busy machine.
  it('is filled after the commit off the writer, and lets go of deleted mail', { timeout: 90_000 }, async () => {
    const database = await openTestDatabase('search-index')
    cleanups.push(database.close)
    const { path, storage } = database
    const now = Date.now()
    const inbox = await storage.db
      .insertInto('inbox').values({ address: `reader@${DOMAIN}`, local_part: 'reader', domain: DOMAIN, created_at: now, expires_at: now + 3_600_000 })
      .returning('id').executeTakeFirstOrThrow()
    const { ingest, port, close } = await startIngest(database, { MAIL_DOMAINS: DOMAIN, MAIL_AUTH: 'off', ...extraEnv })
    cleanups.push(close)

    const transport = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true })
    await transport.sendMail({ from: 'shop@sender.test', to: `reader@${DOMAIN}`, subject: 'Ihre Bestellbestätigung', text: 'Lieferung nach Köln' })
    const message = await storage.db.selectFrom('message').select(['id', 'message_content_id']).where('inbox_id', '=', inbox.id).executeTakeFirstOrThrow()

    const indexPath = searchIndexPath(path)!
    expect(indexPath).toBe(`${path}-search`)
    await vi.waitFor(() => expect(indexed(indexPath, 'köl')).toEqual([message.message_content_id]), { timeout: 30_000, interval: 50 })
    // What an operator's scrape shows once the indexer has caught up.
    expect(await ingest.metrics.registry.metrics()).toContain('tempbox_ingest_search_index_backlog{kind="contents"} 0')
    // The API's view of it: another connection, looking the term up in the index file.
    const api = createDb({ path }).db
    cleanups.push(() => api.destroy())
    const search = (term: string) => searchInboxPage(api, inbox.id, [{ kind: 'words', value: term }], { limit: 10, before: null, budgetMs: 10_000 })
    expect(await search('KÖLN')).toMatchObject({ ids: [message.id], total: 1, cut: false })
    expect(await search('hamburg')).toMatchObject({ ids: [], total: 0 })

    await storage.db.deleteFrom('message').where('id', '=', message.id).execute()
    await vi.waitFor(() => expect(indexed(indexPath, 'köl')).toEqual([]), { timeout: 30_000, interval: 50 })
    expect(await search('köln')).toMatchObject({ ids: [], total: 0 })
  })
})
