import { createServer, type Server } from 'node:http'
import nodemailer, { type Transporter } from 'nodemailer'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Tempbox, TempboxError, TempboxTimeoutError, verifyWebhookSignature, type Inbox } from '@tempbox/client'
import { startStack, type Stack } from '../support/stack.js'

let stack: Stack
let smtp: Transporter
let tempbox: Tempbox
/** Every request the client made, method and URL, for the check against the OpenAPI document at the end. */
const calls: { method: string; url: URL }[] = []

beforeAll(async () => {
  stack = await startStack({ env: { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true', MAX_ACTIVE_ADDRESSES_PER_IP: '50' } })
  smtp = nodemailer.createTransport({ host: '127.0.0.1', port: stack.smtpPort, secure: false, ignoreTLS: true })
  tempbox = new Tempbox({ baseUrl: stack.apiUrl, fetch: recording(fetch) })
})
afterAll(async () => {
  smtp?.close()
  await stack?.stop()
})

function recording(inner: (input: string, init?: RequestInit) => Promise<Response>) {
  return (input: string, init?: RequestInit) => {
    calls.push({ method: init?.method ?? 'GET', url: new URL(input) })
    return inner(input, init)
  }
}

async function send(to: string, subject: string, text: string, from = 'MyApp <noreply@myapp.test>'): Promise<void> {
  const info = await smtp.sendMail({ from, to, subject, text })
  expect(info.response).toMatch(/^250/)
}

describe('@tempbox/client against a running Tempbox, mail sent over SMTP', () => {
  let inbox: Inbox

  it('creates an inbox with an address on the served domain and its expiry', async () => {
    inbox = await tempbox.createInbox()
    expect(inbox.address).toMatch(/@tempbox\.test$/)
    expect(Date.parse(inbox.expiresAt!)).toBeGreaterThan(Date.now())
    const chosen = await tempbox.createInbox({ localPart: 'client-chosen-name', domain: 'tempbox.test' })
    expect(chosen.address).toBe('client-chosen-name@tempbox.test')
  })

  it('waits for the message matching every filter, leaving other mail alone, and returns it whole', async () => {
    const waiting = inbox.waitForMessage({ subject: 'welcome', from: 'noreply@myapp.test', contains: 'activate', timeoutMs: 30_000 })
    await send(inbox.address, 'Welcome aboard', 'Nothing to do here.')
    await send(inbox.address, 'Welcome aboard', 'Please activate your account.', 'Other <noreply@other.test>')
    await send(inbox.address, 'Welcome to MyApp', 'Please activate your account today.')
    const message = await waiting
    expect(message).toMatchObject({ subject: 'Welcome to MyApp', fromAddress: 'noreply@myapp.test' })
    expect(message.content).toContain('Please activate your account today.')
    expect(message.headers.some((h) => h.name.toLowerCase() === 'subject')).toBe(true)
  })

  it('keeps waiting across long polls cut short in front of the API until its own timeout', async () => {
    // A proxy that answers every long poll after a second: the client must poll again, from where it was.
    const cutting = new Tempbox({
      baseUrl: `${stack.apiUrl}/api/`,
      fetch: recording((input, init) => fetch(input.replace(/timeout=\d+/, 'timeout=1'), init)),
    })
    const attached = cutting.inbox(inbox.address)
    let polls = 0
    const counted = new Tempbox({
      baseUrl: stack.apiUrl,
      fetch: (input, init) => {
        if (input.includes('/wait?')) polls++
        return fetch(input.replace(/timeout=\d+/, 'timeout=1'), init)
      },
    }).inbox(inbox.address)
    const waiting = Promise.all([attached.waitForMessage({ subject: 'late', timeoutMs: 30_000 }), counted.waitForMessage({ subject: 'late', timeoutMs: 30_000 })])
    // Sent once both waits have seen at least three empty answers.
    await expect.poll(() => polls, { timeout: 20_000 }).toBeGreaterThanOrEqual(3)
    await send(inbox.address, 'A late arrival', 'Here at last.')
    const [first, second] = await waiting
    expect(first.subject).toBe('A late arrival')
    expect(second.subject).toBe('A late arrival')
  })

  it('reads a code with the sentence it came from and the sender verdict; an older code is never returned', async () => {
    const codes = await tempbox.createInbox()
    await send(codes.address, 'Your old code', 'Your verification code is 111222.')
    const old = await codes.waitForCode({ timeoutMs: 30_000 })
    expect(old).toMatchObject({ code: '111222', source: 'Your verification code is 111222.' })

    // The next wait starts after the message it returned: the old code is not the answer.
    const waiting = codes.waitForCode({ timeoutMs: 30_000 })
    await send(codes.address, 'Your sign-in code', 'Hello,\n\nUse 482913 to sign in to MyApp. It expires in 10 minutes.')
    const found = await waiting
    expect(found.code).toBe('482913')
    expect(found.source).toBe('Use 482913 to sign in to MyApp.')
    expect(found.messageId).not.toBe(old.messageId)
    expect(Date.parse(found.receivedAt)).toBeGreaterThan(0)
    expect(['pass', 'fail', 'none', 'unknown', 'checking']).toContain(found.sender.verdict)

    // `since` a message id: only mail after it, so the wait runs out rather than answer with either code.
    const none = codes.waitForCode({ since: found.messageId, timeoutMs: 1500 })
    await expect(none).rejects.toThrow(TempboxTimeoutError)
    await expect(none).rejects.toThrow(`no message with a code arrived at ${codes.address} within 1500 ms`)
    // `since` a time before both: the newest code is the answer.
    expect((await codes.waitForCode({ since: new Date(Date.parse(old.receivedAt) - 1000), timeoutMs: 5000 })).code).toBe('482913')
  })

  it('finds the first link matching a pattern, stepping over mail without one', async () => {
    const links = await tempbox.createInbox()
    const waiting = links.waitForLink({ match: /\/confirm\?token=/, timeoutMs: 30_000 })
    await send(links.address, 'Reset your password', 'Reset it here: https://myapp.test/reset?token=r1')
    await send(links.address, 'Confirm your email', 'Confirm your email address: https://myapp.test/confirm?token=c2')
    const link = await waiting
    expect(link.url).toBe('https://myapp.test/confirm?token=c2')
    const listed = await links.messages()
    expect(listed.map((m) => m.subject)).toEqual(['Confirm your email', 'Reset your password'])
    expect(link.messageId).toBe(listed[0]!.id)
  })

  it('lists, reads and downloads messages, then deletes the inbox: its address answers 404 inbox_not_found', async () => {
    const listed = await inbox.messages()
    expect(listed.map((m) => m.subject)).toEqual(['A late arrival', 'Welcome to MyApp', 'Welcome aboard', 'Welcome aboard'])
    expect((await inbox.messages({ q: 'from:other.test' })).map((m) => m.fromAddress)).toEqual(['noreply@other.test'])
    const full = await inbox.message(listed[1]!.id)
    expect(full.content).toContain('Please activate your account today.')
    const raw = new TextDecoder().decode(await inbox.raw(listed[1]!.id))
    expect(raw).toMatch(/^Subject: Welcome to MyApp\r$/m)

    await inbox.delete()
    const gone = await inbox.messages().catch((error: unknown) => error)
    expect(gone).toBeInstanceOf(TempboxError)
    expect(gone).toMatchObject({ status: 404, code: 'inbox_not_found' })
    expect((gone as Error).message).toMatch(/^[A-Z].*\.$/)
  })

  it('types the API errors: 409 for a chosen name in use, 404 for an unknown message, 400 for a bad id', async () => {
    const taken = await tempbox.createInbox({ localPart: 'client-chosen-name' }).catch((error: unknown) => error)
    expect(taken).toBeInstanceOf(TempboxError)
    expect(taken).toMatchObject({ status: 409, code: 'address_taken' })

    const fresh = await tempbox.createInbox()
    await expect(fresh.message('999999')).rejects.toMatchObject({ name: 'TempboxError', status: 404, code: 'message_not_found' })
    await expect(fresh.message('not-an-id')).rejects.toMatchObject({ status: 400, code: 'validation_failed' })
  })

  it('says what a wait waited for when it runs out', async () => {
    const quiet = await tempbox.createInbox()
    const started = Date.now()
    const error = await quiet.waitForMessage({ subject: 'Welcome', timeoutMs: 2000 }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(TempboxTimeoutError)
    expect((error as Error).message).toBe(`no message matching subject "Welcome" arrived at ${quiet.address} within 2000 ms`)
    expect(Date.now() - started).toBeGreaterThanOrEqual(2000)
    await expect(quiet.waitForLink({ match: 'confirm', timeoutMs: 1000 })).rejects.toThrow(
      `no message with a link matching "confirm" arrived at ${quiet.address} within 1000 ms`,
    )
  })

  it('verifies a real webhook delivery of the API, and refuses it once tampered with', async () => {
    const hooked = await tempbox.createInbox()
    let server: Server | undefined
    const delivery = new Promise<{ body: string; headers: Record<string, string | string[] | undefined> }>((resolve) => {
      server = createServer((req, res) => {
        let body = ''
        req.setEncoding('utf8')
        req.on('data', (chunk: string) => (body += chunk))
        req.on('end', () => {
          res.end()
          resolve({ body, headers: req.headers })
        })
      })
    })
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
    try {
      const port = (server!.address() as { port: number }).port
      const created = await fetch(`${stack.apiUrl}/api/email/${hooked.address}/webhook`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url: `http://127.0.0.1:${port}/hook` }),
      })
      const { secret } = (await created.json()) as { secret: string }
      await send(hooked.address, 'Hooked', 'Your code is 654321.')
      const { body, headers } = await delivery
      expect(await verifyWebhookSignature({ secret, body, headers })).toBe(true)
      expect(await verifyWebhookSignature({ secret, body: body.replace('Hooked', 'Hacked'), headers })).toBe(false)
      expect(await verifyWebhookSignature({ secret: `${secret}x`, body, headers })).toBe(false)
    } finally {
      await new Promise((resolve) => server!.close(resolve))
    }
  })

  it('made only calls the OpenAPI document of the API describes, with parameters it declares', async () => {
    type Operation = { parameters?: { in: string; name: string }[] }
    const doc = (await (await fetch(`${stack.apiUrl}/api/docs/json`)).json()) as { paths: Record<string, Record<string, Operation>> }
    const templates = Object.keys(doc.paths).map((path) => ({
      path,
      pattern: new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`),
    }))
    const used = new Set<string>()
    for (const { method, url } of calls) {
      // A path parameter is one segment: the address's @ travels encoded.
      const template = templates.find((t) => t.pattern.test(url.pathname))
      expect(template, `${method} ${url.pathname}`).toBeDefined()
      const operation = doc.paths[template!.path]![method.toLowerCase()]
      expect(operation, `${method} ${template!.path}`).toBeDefined()
      const declared = (operation!.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name)
      for (const name of url.searchParams.keys()) expect(declared, `${method} ${template!.path} ?${name}`).toContain(name)
      used.add(`${method} ${template!.path}`)
    }
    expect([...used].sort()).toEqual([
      'DELETE /api/email/{address}',
      'GET /api/email/{address}',
      'GET /api/email/{address}/code',
      'GET /api/email/{address}/messages/{id}',
      'GET /api/email/{address}/messages/{id}/raw',
      'GET /api/email/{address}/wait',
      'POST /api/email/generate',
    ])
  })
})
