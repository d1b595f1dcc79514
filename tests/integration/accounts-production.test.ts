import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import nodemailer from 'nodemailer'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rawSession } from '../support/smtp-session.js'
import { startStack, waitFor, type Stack } from '../support/stack.js'

/**
 * The API as deployed: APP_ENV=production, two worker processes behind a proxy (TRUST_PROXY), logging at info, over
 * a database folder it creates itself. Requests come from a loopback address of their own (127.0.0.77) and name a
 * client through X-Forwarded-For, so either IP showing up in a log line is found.
 */
const KEY = 'prod-setup-key-5f1c9a2e7b'
const SOCKET_IP = '127.0.0.77'
const CLIENT_IP = '203.0.113.77'

let stack: Stack
let root: string
let dbPath: string

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'tempbox-prod-'))
  dbPath = join(root, 'private', 'tempbox.sqlite')
  stack = await startStack({
    env: {
      APP_ENV: 'production',
      JWT_SECRET: 'j'.repeat(48),
      ADMIN_SETUP_KEY: KEY,
      API_PROCESSES: '2',
      TRUST_PROXY: '127.0.0.0/8',
      LOG_LEVEL: 'info',
      // Access lines on: the test proves what they hold is redacted.
      LOG_REQUESTS: 'true',
      GEOIP_PRELOAD: 'false',
      DATABASE_PATH: dbPath,
      // Small mail-ingest limits, so the log test reaches its refusals (inbox full, unknown recipients, connections).
      MAX_MESSAGES_PER_INBOX: '1',
      SMTP_MAX_UNKNOWN_RECIPIENTS: '2',
      SMTP_MAX_CLIENTS_PER_IP: '3',
    },
  })
})
afterAll(async () => {
  await stack?.stop()
  rmSync(root, { recursive: true, force: true })
})

interface Answer {
  status: number
  text: string
  json: <T = Record<string, unknown>>() => T
}

/** One request from SOCKET_IP on a fresh connection; `untilFirstChunk` ends streams (SSE) once they have spoken. */
function call(method: string, path: string, options: { body?: unknown; token?: string; untilFirstChunk?: boolean } = {}): Promise<Answer> {
  const { body, token, untilFirstChunk } = options
  const payload = body !== undefined ? JSON.stringify(body) : undefined
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: stack.httpPort,
        localAddress: SOCKET_IP,
        method,
        path,
        agent: false,
        headers: {
          'x-forwarded-for': CLIENT_IP,
          // Node's client sends a DELETE body with neither Content-Length nor chunking unless told its length.
          ...(payload !== undefined ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
      },
      (res) => {
        let text = ''
        const done = () => resolve({ status: res.statusCode ?? 0, text, json: <T,>() => JSON.parse(text) as T })
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => {
          text += chunk
          if (untilFirstChunk) {
            req.destroy()
            done()
          }
        })
        res.on('end', done)
      },
    )
    req.on('error', reject)
    req.end(payload)
  })
}

describe('production, over the real processes', () => {
  it('closes setup for good with one winner among simultaneous promotions on two workers, and prints the key once', async () => {
    const status = await call('GET', '/api/auth/setup')
    expect(status.json()).toEqual({ open: true, keyInLog: true })
    expect(stack.api.output().split(KEY).length - 1).toBe(1)
    expect(stack.api.output()).toContain(`[setup] Owner setup is open. Sign in at /admin-setup and enter this setup key: ${KEY}`)

    const people = await Promise.all(
      Array.from({ length: 6 }, async (_, i) => {
        const email = `racer${i}@example.com`
        const res = await call('POST', '/api/auth/register', { body: { email, password: `racer-pass-${i}` } })
        return { email, token: res.json<{ token: string }>().token }
      }),
    )
    const answers = await Promise.all(people.map((p) => call('POST', '/api/auth/promote-owner', { body: { email: p.email, secretKey: KEY }, token: p.token })))
    expect(answers.map((a) => a.status).sort()).toEqual([200, 403, 403, 403, 403, 403])
    for (const a of answers.filter((x) => x.status === 403)) expect(a.json().code).toBe('setup_closed')
    const roles = await Promise.all(people.map(async (p) => (await call('GET', '/api/auth/me', { token: p.token })).json<{ user: { role: string } }>().user.role))
    expect(roles.filter((r) => r === 'owner')).toHaveLength(1)
    expect((await call('GET', '/api/auth/setup')).json()).toEqual({ open: false })

    // The owner deletes their account: setup stays closed on every worker.
    const ownerIndex = answers.findIndex((a) => a.status === 200)
    const owner = people[ownerIndex]!
    expect((await call('DELETE', '/api/auth/account', { token: owner.token, body: { password: `racer-pass-${ownerIndex}` } })).status).toBe(200)
    for (let i = 0; i < 4; i++) expect((await call('GET', '/api/auth/setup')).json()).toEqual({ open: false })
    const late = people.find((p) => p !== owner)!
    expect((await call('POST', '/api/auth/promote-owner', { body: { email: late.email, secretKey: KEY }, token: late.token })).json().code).toBe('setup_closed')
  })

  it('created the database folder 0700 and the database with its -wal and -shm 0600', async () => {
    await waitFor(() => statSync(dbPath).isFile())
    const mode = (p: string) => (statSync(p).mode & 0o777).toString(8)
    expect(mode(dirname(dbPath))).toBe('700')
    for (const file of [dbPath, `${dbPath}-wal`, `${dbPath}-shm`]) expect(mode(file), file).toBe('600')
  })

  /**
   * mail-ingest's refusals, from SOCKET_IP: the inbox is full (452 at RCPT), too many unknown recipients (421, closed),
   * too many connections from one client (421 at the greeting).
   */
  async function refusalsOfMailIngest(address: string, unknown: string): Promise<void> {
    const session = async () => {
      const s = rawSession(stack.smtpPort, SOCKET_IP)
      const greeting = await s.reply()
      return { ...s, greeting }
    }
    const full = await session()
    expect(full.greeting).toMatch(/^220 /)
    await full.command('EHLO client.example')
    expect(await full.command('MAIL FROM:<sender@example.com>')).toMatch(/^250/)
    // Refused at RCPT (452 4.2.2) when ingest's recipient cache knows the inbox is full, else at the end of DATA by
    // the exact check in the write transaction (552 5.2.2: its only recipient is full); the mail is not taken.
    const rcpt = await full.command(`RCPT TO:<${address}>`)
    if (rcpt.startsWith('250')) {
      expect(await full.command('DATA')).toMatch(/^354/)
      expect(await full.command(`Subject: over quota\r\nTo: ${address}\r\n\r\nNot stored\r\n.`)).toMatch(/^552 5\.2\.2 /)
    } else {
      expect(rcpt).toMatch(/^452 4\.2\.2 /)
    }
    await full.command('QUIT')
    await full.closed

    const guessing = await session()
    await guessing.command('EHLO client.example')
    await guessing.command('MAIL FROM:<sender@example.com>')
    expect(await guessing.command(`RCPT TO:<${unknown}>`)).toMatch(/^550 /)
    expect(await guessing.command(`RCPT TO:<x${unknown}>`)).toMatch(/^550 /)
    expect(await guessing.command(`RCPT TO:<y${unknown}>`)).toMatch(/^421 4\.7\.0 /)
    await guessing.closed

    // Three sessions held open (a closed one may not be counted out yet: asked again until greeted), a fourth refused.
    const held: Awaited<ReturnType<typeof session>>[] = []
    for (let i = 0; i < 3; i++) {
      await waitFor(async () => {
        const s = await session()
        if (s.greeting.startsWith('220 ')) held.push(s)
        else s.socket.destroy()
        return s.greeting.startsWith('220 ')
      }, 20_000, 'a session to be greeted')
    }
    const extra = await session()
    expect(extra.greeting).toMatch(/^421 4\.7\.0 Too many connections/)
    for (const s of held) {
      await s.command('QUIT')
      await s.closed
    }
  }

  it('logs no inbox address, IP, token or password, whatever the requests', async () => {
    const password = 'Log-Secret-Pass-91'
    const newPassword = 'Log-Newer-Pass-37'
    const email = 'quiet-logs@example.com'
    const registered = await call('POST', '/api/auth/register', { body: { email, password } })
    const token = registered.json<{ token: string }>().token
    await call('POST', '/api/auth/login', { body: { email, password: 'Wrong-Pass-55' } })
    const fresh = (await call('POST', '/api/auth/password', { body: { currentPassword: password, newPassword }, token })).json<{ token: string }>().token
    expect(fresh).toMatch(/^ey/)
    expect((await call('GET', '/api/auth/me', { token })).status).toBe(401)

    const localPart = `qlog${Date.now().toString(36)}`
    const address = (await call('POST', '/api/email/generate', { body: { localPart }, token: fresh })).json<{ email: string }>().email
    const unknown = `nobody${Date.now().toString(36)}@${stack.mailDomain}`
    const smtp = nodemailer.createTransport({ host: '127.0.0.1', port: stack.smtpPort, secure: false, ignoreTLS: true })
    await smtp.sendMail({
      from: 'sender@example.com',
      to: address,
      subject: 'Quiet',
      text: 'hello',
      attachments: [{ filename: 'note.txt', content: 'attached' }],
    })
    await expect(smtp.sendMail({ from: 'sender@example.com', to: unknown, subject: 'x', text: 'x' })).rejects.toThrow(/550/)
    smtp.close()
    await refusalsOfMailIngest(address, unknown)

    const wait = await call('GET', `/api/email/${address}/wait?timeout=5&since=0`)
    const id = wait.json<{ message: { id: string } }>().message.id
    const requests: [string, string, { untilFirstChunk?: boolean }?][] = [
      ['GET', `/api/email/${address}`],
      ['GET', `/api/email/${encodeURIComponent(address)}/events`, { untilFirstChunk: true }],
      ['GET', `/api/email/${address}/messages/${id}`],
      ['GET', `/api/email/${address}/messages/${id}/raw`],
      ['GET', `/api/email/${address}/messages/${id}/attachments/0`],
      ['GET', `/api/email/${address}/messages/999999`],
      ['GET', `/api/email/${address}/messages/${id}/attachments/7`],
      ['GET', `/api/email/${unknown}`],
      ['GET', `/api/email/${unknown}/wait?timeout=0`],
      ['GET', `/api/email/not%20an%20address`],
      ['GET', `/inbox/${address}?from=${address}`],
      ['DELETE', `/api/email/${address}/messages/${id}`],
    ]
    const statuses: number[] = []
    for (const [method, path, options] of requests) statuses.push((await call(method, path, options)).status)
    expect(statuses).toEqual([200, 200, 200, 200, 200, 404, 404, 404, 404, 400, 404, 204])
    await call('POST', '/api/auth/sign-out-everywhere', { token: fresh })

    // The logs are the servers' whole output; stop them so every line is written.
    await stack.api.stop()
    await stack.ingest.stop()
    const logs = stack.api.output() + stack.ingest.output()
    for (const secret of [address, localPart, unknown, unknown.split('@')[0]!, `x${unknown}`, `y${unknown}`, token, fresh, password, newPassword, 'Wrong-Pass-55', SOCKET_IP, CLIENT_IP]) {
      expect(logs.includes(secret), `the log holds ${secret}`).toBe(false)
    }
    // Request lines are there (so the check above is not vacuous), with the address replaced. The polled routes (listing,
    // events, wait) log only warnings, so the test also proves no warning of theirs carries the address.
    for (const url of [`/api/email/[address]/messages/${id}/raw`, `/api/email/[address]/messages/${id}/attachments/0`, '/api/email/[address]/messages/999999', '/inbox/[address]?from=…']) {
      expect(logs).toContain(`"url":"${url}"`)
    }
  })

})
