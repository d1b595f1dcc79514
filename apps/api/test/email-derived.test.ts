import { sql } from 'kysely'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { migrateToLatest } from '@tempbox/db'
import type { App } from '../src/app.js'
import { buildTestApp } from './helper.js'
import { deliver, generate } from './email-fixtures.js'

let app: App
let address: string
beforeEach(async () => {
  app = await buildTestApp()
  address = await generate(app)
})
afterEach(async () => {
  await app.close()
})

/** As an older version stored messages: without their derived view; the migration that derives them runs again. */
async function upgradeFrom(views: { derived_version: number | null; codes: string }): Promise<void> {
  await app.db.updateTable('message_content').set({ ...views, preview: '', links: '[]', safe_html: null, html_text: null }).execute()
  await sql`DELETE FROM kysely_migration WHERE name = '2026_11_28_000801_derive_stored_views'`.execute(app.db)
  await migrateToLatest(app.db)
}

const list = () => app.inject({ method: 'GET', url: `/api/email/${encodeURIComponent(address)}` })
const read = (id: number) => app.inject({ method: 'GET', url: `/api/email/${encodeURIComponent(address)}/messages/${id}` })

describe('views of messages stored by an older version, derived by the upgrade (migration 2026_11_28_000801)', () => {
  it('lists and shows a message stored without its view with its preview, code and HTML', async () => {
    const id = await deliver(app, address, { subject: 'Your code', text: null, html: '<p>Your verification code is <b>482913</b></p>' })
    await upgradeFrom({ derived_version: null, codes: '[]' })

    const { messages } = (await list()).json() as { messages: { preview: string; verification: { codes: string[] } }[] }
    expect(messages[0]).toMatchObject({ preview: 'Your verification code is 482913', verification: { codes: ['482913'] } })
    expect((await read(id)).json()).toMatchObject({
      html: '<p>Your verification code is <b>482913</b></p>',
      verification: { codeDetails: [{ code: '482913', source: 'Your verification code is 482913', reason: 'labelled', label: 'verification code', position: 26 }] },
    })
  })

  it('shows where a code came from for a message whose codes were stored without it (version 1)', async () => {
    const id = await deliver(app, address, { subject: 'Sign in', text: 'Hello.\nYour OTP: 4821\nThanks' })
    await upgradeFrom({ derived_version: 1, codes: '["4821"]' })
    const { messages } = (await list()).json() as { messages: { id: string; verification: { codes: string[]; codeDetails: unknown[] } }[] }
    expect(messages.find((m) => m.id === String(id))!.verification).toMatchObject({
      codes: ['4821'],
      codeDetails: [{ code: '4821', source: 'Your OTP: 4821', reason: 'labelled', label: 'OTP', position: 17 }],
    })
  })
})
