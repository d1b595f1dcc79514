import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { selectMessagesWithContent } from '@tempbox/db'
import type { App } from '../src/app.js'
import { buildTestApp, refuseWrites } from './helper.js'
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

/** As an older version stored messages: without their derived view. */
async function forgetViews(): Promise<void> {
  await app.db.updateTable('message_content').set({ derived_version: null, preview: '', codes: '[]', links: '[]', safe_html: null, html_text: null }).execute()
}

const list = () => app.inject({ method: 'GET', url: `/api/email/${encodeURIComponent(address)}` })
const read = (id: number) => app.inject({ method: 'GET', url: `/api/email/${encodeURIComponent(address)}/messages/${id}` })

describe('views derived once (messages stored without them, as by an older version)', () => {
  it('derives a message at its first read and stores the result', async () => {
    const id = await deliver(app, address, { subject: 'Your code', text: null, html: '<p>Your verification code is <b>482913</b></p>' })
    await forgetViews()
    const before = await selectMessagesWithContent(app.db).select(['derived_version']).where('message.id', '=', id).executeTakeFirstOrThrow()
    expect(before.derived_version).toBeNull()

    const { messages } = (await list()).json() as { messages: { preview: string; verification: { codes: string[] } }[] }
    expect(messages[0]).toMatchObject({ preview: 'Your verification code is 482913', verification: { codes: ['482913'] } })
    const after = await selectMessagesWithContent(app.db).select(['derived_version', 'preview', 'codes', 'safe_html']).where('message.id', '=', id).executeTakeFirstOrThrow()
    expect(after).toMatchObject({ derived_version: 2, preview: 'Your verification code is 482913', safe_html: '<p>Your verification code is <b>482913</b></p>' })
    expect(JSON.parse(after.codes)).toEqual([
      { code: '482913', source: 'Your verification code is 482913', reason: 'labelled', label: 'verification code', position: 26 },
    ])
  })

  it('derives again a message whose codes were stored without where they came from (version 1)', async () => {
    const id = await deliver(app, address, { subject: 'Sign in', text: 'Hello.\nYour OTP: 4821\nThanks' })
    await app.db.updateTable('message_content').set({ derived_version: 1, codes: '["4821"]' }).execute()
    const { messages } = (await list()).json() as { messages: { id: string; verification: { codes: string[]; codeDetails: unknown[] } }[] }
    expect(messages.find((m) => m.id === String(id))!.verification).toMatchObject({
      codes: ['4821'],
      codeDetails: [{ code: '4821', source: 'Your OTP: 4821', reason: 'labelled', label: 'OTP', position: 17 }],
    })
  })

  it('lists and shows a message whose view cannot be stored, and logs that once', async () => {
    const first = await deliver(app, address, { subject: 'one', text: 'Code 111222 for you' })
    const second = await deliver(app, address, { subject: 'two', text: 'Plain words' })
    await forgetViews()
    // The store refuses every update: deriving still gives the reader what it can (in memory), every time.
    await refuseWrites(app.db, 'message_content', 'update')
    const logged = vi.spyOn(app.log, 'error')

    for (let i = 0; i < 2; i++) {
      const res = await list()
      expect(res.statusCode).toBe(200)
      const { messages } = res.json() as { messages: { subject: string; preview: string }[] }
      expect(messages.map((m) => [m.subject, m.preview])).toEqual([
        ['two', 'Plain words'],
        ['one', 'Code 111222 for you'],
      ])
      expect((await read(first)).json()).toMatchObject({ content: 'Code 111222 for you', verification: { codes: ['111222'] } })
    }
    const failures = logged.mock.calls.map((c) => String(c[1])).filter((m) => m.startsWith('[inbox] the view of message'))
    expect(failures.sort()).toEqual([`[inbox] the view of message ${first} could not be built; it is shown without it`, `[inbox] the view of message ${second} could not be built; it is shown without it`].sort())
  })
})
