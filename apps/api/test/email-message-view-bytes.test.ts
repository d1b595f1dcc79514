import { readFileSync } from 'node:fs'
import { basename } from 'node:path'
import Fastify, { type FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import { afterEach, describe, expect, it } from 'vitest'
import { FullMessage } from '@tempbox/types'
import type { App } from '../src/app.js'
import { findMessageAuth } from '../src/repositories/message-auth-repository.js'
import { toMessageAuth } from '../src/services/messages/message-auth-view.js'
import { buildTestApp, onPostgres } from './helper.js'
import { deliver, generate, type TestMail } from './email-fixtures.js'
import { realMailFiles } from '../../../tests/support/real-mail-corpus.js'

/**
 * A message view is made from its text and HTML as UTF-8 bytes, JSON-escaped byte by byte and spliced into the rest.
 * What a reader gets must be exactly what serializing the view as strings gives: the reference here is the same
 * schema's serializer (the route's, fast-json-stringify) over the view built with strings (MessageReadService.fullMessage).
 */
let app: App
let reference: FastifyInstance | undefined
afterEach(async () => {
  await reference?.close()
  reference = undefined
  await app.close()
})

/** The route's schema and serializer, answering the view made with strings. */
async function referenceServer(address: string): Promise<FastifyInstance> {
  const server = Fastify()
  server.get<{ Params: { id: string } }>('/:id', { schema: { response: { 200: FullMessage } } }, async (request) => {
    const inbox = await app.inboxService.getInbox(address)
    const view = await app.messageReads.fullMessage(inbox, Number(request.params.id))
    return { ...view, auth: toMessageAuth(await findMessageAuth(app.db, inbox.id, Number(view.id))) }
  })
  await server.ready()
  return server
}

async function expectSameBytes(address: string, ids: number[]): Promise<void> {
  reference ??= await referenceServer(address)
  for (const id of ids) {
    const expected = await reference.inject({ method: 'GET', url: `/${id}` })
    expect(expected.statusCode).toBe(200)
    // First read (made from bytes), then the kept copy.
    for (let read = 0; read < 2; read++) {
      const res = await app.inject({ method: 'GET', url: `/api/email/${encodeURIComponent(address)}/messages/${id}` })
      expect(res.statusCode).toBe(200)
      expect(res.rawPayload.equals(expected.rawPayload), `message ${id}: ${res.body.slice(0, 200)}`).toBe(true)
    }
  }
}

describe('GET …/messages/{id}: the view made from bytes', () => {
  it('is byte for byte the serialized view for hostile text and HTML, and cuts the text before a character, never inside it', async () => {
    // A small display limit, so cuts fall on the characters under test.
    app = await buildTestApp({ MESSAGE_TEXT_MAX_CHARS: '64' })
    const address = await generate(app)
    const controls = Array.from({ length: 31 }, (_, c) => String.fromCharCode(c + 1)).join('')
    const mails: TestMail[] = [
      { text: `quotes " and \\ backslashes, controls ${controls} DEL \u007f, separators \u2028 \u2029, </script><script>alert(1)</script>` },
      { text: `${'a'.repeat(63)}😀 and more after the cut` }, // the emoji's two units would cross the limit
      { text: `${'a'.repeat(62)}😀 and more after the cut` }, // the emoji fits exactly
      { text: `${'é'.repeat(70)}` }, // two bytes a character: cut by characters, not bytes
      { text: `${'€'.repeat(64)}` }, // 192 bytes but exactly the limit in characters: not cut
      { text: `lone surrogates \ud800 and \udfff stored as they can be` },
      { text: '\u3000\u00a0 \n', html: '<p>Only <b>HTML</b> "here" \\ \u2028</p>' }, // a blank text part: the HTML's rendering is the content
      { text: null, html: `<p>${'x'.repeat(100)}</p><script>alert(1)</script><p>😀 "quoted" </p>` },
      {
        text: 'see the picture',
        html: '<p>Logo: <img src="cid:logo@x"> "and" \u2029</p>',
        attachments: [{ filename: 'logo.png', contentType: 'image/png', content: Buffer.from('png'), contentId: '<logo@x>', inline: true }],
      },
      { text: 'a NUL \u0000 in the text' },
      { text: 'see the HTML', html: `<p>${'y'.repeat(300_000)}</p>` }, // withheld: too large to display
      { subject: 'A "quoted" subject \u2028 with </script>', text: '' },
    ]
    const ids: number[] = []
    for (const mail of mails) ids.push(await deliver(app, address, mail))
    await expectSameBytes(address, ids)

    const content = async (id: number) =>
      (await app.inject({ method: 'GET', url: `/api/email/${encodeURIComponent(address)}/messages/${id}` })).json() as { content: string; contentTruncated: boolean; hasTextPart: boolean; html: string | null }
    expect(await content(ids[0]!)).toMatchObject({ content: mails[0]!.text!.slice(0, 64), contentTruncated: true })
    expect(await content(ids[1]!)).toMatchObject({ content: 'a'.repeat(63), contentTruncated: true })
    expect(await content(ids[2]!)).toMatchObject({ content: `${'a'.repeat(62)}😀`, contentTruncated: true })
    expect(await content(ids[3]!)).toMatchObject({ content: 'é'.repeat(64), contentTruncated: true })
    expect(await content(ids[4]!)).toMatchObject({ content: '€'.repeat(64), contentTruncated: false })
    expect(await content(ids[6]!)).toMatchObject({ hasTextPart: false, content: expect.stringContaining('Only HTML "here" \\') })
    const withheld = await app.inject({ method: 'GET', url: `/api/email/${encodeURIComponent(address)}/messages/${ids[10]}` })
    expect(withheld.json()).toMatchObject({ content: 'see the HTML', html: null, htmlWithheld: 'too_large' })
    const withImage = await content(ids[8]!)
    expect(withImage.html).toContain(`/api/email/${encodeURIComponent(address)}/messages/${ids[8]}/attachments/0`)
  })

  it('is byte for byte the serialized view for every real-mail source, taken as a text part and as HTML', async () => {
    // Not parsed (the parser is mail-ingest's; an api test does not import another app): each source's bytes, read as
    // UTF-8, are real-world text for the escaper and the cut, and real-world markup for the HTML path.
    app = await buildTestApp({ MESSAGE_TEXT_MAX_CHARS: '4096' })
    const address = await generate(app)
    const files = realMailFiles()
    expect(files.length).toBeGreaterThan(190)
    const ids: number[] = []
    for (const file of files) {
      const source = readFileSync(file).toString('utf8').replaceAll('\u0000', '')
      ids.push(await deliver(app, address, { subject: basename(file), text: source }))
      ids.push(await deliver(app, address, { subject: basename(file), text: null, html: source }))
    }
    await expectSameBytes(address, ids)
  }, 300_000)

  it('serves a text stored as bytes that are not UTF-8 as the driver decodes it, as before (PostgreSQL refuses such text)', async () => {
    app = await buildTestApp()
    const address = await generate(app)
    const id = await deliver(app, address, { text: 'placeholder' })
    const { message_content_id: contentId } = await app.db.selectFrom('message').select('message_content_id').where('id', '=', id).executeTakeFirstOrThrow()
    const broken = sql`update message_content set text = ${onPostgres ? sql`convert_from('\\xff41c3'::bytea, 'UTF8')` : sql`cast(x'ff41c3' as text)`} where id = ${contentId}`
    if (onPostgres) {
      await expect(broken.execute(app.db)).rejects.toThrow(/invalid byte sequence/)
      return
    }
    await broken.execute(app.db)
    await expectSameBytes(address, [id])
    const res = await app.inject({ method: 'GET', url: `/api/email/${encodeURIComponent(address)}/messages/${id}` })
    expect(res.json()).toMatchObject({ content: expect.stringContaining('A') })
  })
})
