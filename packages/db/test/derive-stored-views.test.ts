import { Migrator } from 'kysely'
import { afterEach, describe, expect, it } from 'vitest'
import { DERIVED_VERSION, deriveMessage } from '@tempbox/mail-derive'
import { createDb, createPostgresDb, insertMessage, migrateToLatest, selectMessagesWithContent, type Db } from '../src/index.js'
import { migrationProviderFor } from '../src/migrations/index.js'
import { ENGINES, freshPostgresDatabase, type TestEngine } from '../src/testing/index.js'

/** The last migration both engines ran before views were derived for older rows. */
const BEFORE = '2026_11_28_000601_message_search_index'

const opened: Db[] = []
afterEach(async () => {
  for (const db of opened.splice(0)) await db.destroy()
})

async function migratedTo(engine: TestEngine, name: string): Promise<Db> {
  const db = engine === 'postgres' ? createPostgresDb({ url: await freshPostgresDatabase() }) : createDb({ path: ':memory:' }).db
  opened.push(db)
  const { error } = await new Migrator({ db, provider: migrationProviderFor(engine), allowUnorderedMigrations: true }).migrateTo(name)
  expect(error).toBeUndefined()
  return db
}

/** A message as versions before derivation at ingest stored it: no view (`derived_version` NULL), or an older one. */
async function oldMessage(db: Db, subject: string, body: { text?: string | null; html?: string | null }, derived: { version: number | null; codes?: string }) {
  const now = Date.now()
  const inbox = await db
    .insertInto('inbox').values({ address: `${subject.replace(/\W/g, '').toLowerCase()}${now}@tempbox.test`, local_part: 'x', domain: 'tempbox.test', created_at: now, expires_at: now + 3_600_000 })
    .returning('id').executeTakeFirstOrThrow()
  const [id] = await insertMessage(db, [Number(inbox.id)], {
    content: {
      recipients: '[]', headers: '[]', text: body.text ?? null, html: body.html ?? null, raw: Buffer.from(`Subject: ${subject}\r\n\r\n`),
      derived_version: derived.version, preview: '', codes: derived.codes ?? '[]', links: '[]', safe_html: null, html_text: null,
    },
    listing: { from_name: 'Ann', from_address: 'ann@example.test', subject, sent_at: null, received_at: now, size: 10 },
    attachments: body.html?.includes('cid:')
      ? [{ position: 0, filename: 'logo.png', content_type: 'image/png', size: 1, content_id: '<logo@x>', is_inline: 1, content: Buffer.from('p') }]
      : [],
  })
  return id!
}

const view = (db: Db, id: number) =>
  selectMessagesWithContent(db)
    .select(['derived_version', 'preview', 'codes', 'links', 'safe_html', 'html_text', 'has_remote_content', 'html_withheld'])
    .where('message.id', '=', id)
    .executeTakeFirstOrThrow()

describe.each(ENGINES)('migration 2026_11_28_000801: stored views for older rows, on %s', (engine) => {
  it('derives a message stored without its view, as ingest would have, and one derived by an older version again', async () => {
    const db = await migratedTo(engine, BEFORE)
    const html = '<p>Your verification code is <b>482913</b> <img src="cid:logo@x"> <a href="https://example.test/verify?t=1">Verify</a></p>'
    const never = await oldMessage(db, 'Your code', { html }, { version: null })
    const older = await oldMessage(db, 'Sign in', { text: 'Hello.\nYour OTP: 4821\nThanks' }, { version: 1, codes: '["4821"]' })

    await migrateToLatest(db)

    const derived = deriveMessage({ subject: 'Your code', text: null, html, contentIds: ['<logo@x>'] })
    expect(await view(db, never)).toEqual({
      derived_version: DERIVED_VERSION, preview: derived.preview, codes: JSON.stringify(derived.codes), links: JSON.stringify(derived.links),
      safe_html: derived.safeHtml, html_text: derived.htmlText, has_remote_content: derived.hasRemoteContent ? 1 : 0, html_withheld: derived.htmlWithheld,
    })
    expect(derived.preview).toContain('Your verification code is 482913')
    expect(derived.safeHtml).not.toContain('cid:')
    const again = await view(db, older)
    expect(again.derived_version).toBe(DERIVED_VERSION)
    expect(JSON.parse(again.codes)).toEqual([{ code: '4821', source: 'Your OTP: 4821', reason: 'labelled', label: 'OTP', position: 17 }])
  })

  it('goes through more rows than one batch holds, and leaves current views as they are', async () => {
    const db = await migratedTo(engine, BEFORE)
    const ids: number[] = []
    for (let i = 0; i < 45; i++) ids.push(await oldMessage(db, `Code ${i}`, { text: `Your code is ${100_000 + i}` }, { version: null }))
    const current = await oldMessage(db, 'Current', { text: 'Your code is 999999' }, { version: DERIVED_VERSION, codes: '["kept as stored"]' })

    await migrateToLatest(db)

    for (const [i, id] of ids.entries()) expect(JSON.parse((await view(db, id)).codes)[0].code).toBe(String(100_000 + i))
    expect((await view(db, current)).codes).toBe('["kept as stored"]')
  })
})
