import { execFileSync } from 'node:child_process'
import { copyFileSync, readFileSync, renameSync } from 'node:fs'
import { connect } from 'node:net'
import { join } from 'node:path'
import type { Db, Storage } from '@tempbox/db'
import nodemailer from 'nodemailer'
import { afterEach, beforeAll, afterAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../src/config.js'
import { createSmtpServer } from '../src/smtp-server.js'
import { openTestDatabase, startIngest, type TestDatabase, type TestIngest } from './test-ingest.js'

const DOMAIN = 'tempbox.test'
let database: TestDatabase
let dir: string
let db: Db
let storage: Storage
let dbPath: string
let servers: TestIngest[] = []

/** A self-signed certificate for `name`, made with the openssl CLI (no key or certificate lives in the repo). */
function makeCertificate(name: string): { cert: string; key: string } {
  const cert = join(dir, `${name}.crt`)
  const key = join(dir, `${name}.key`)
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', key, '-out', cert, '-days', '2', '-subj', `/CN=${name}`, '-addext', `subjectAltName=DNS:${name}`], { stdio: 'ignore' })
  return { cert, key }
}

/** Puts a certificate in place as tools do: written beside, then renamed over the live file. */
function install(from: string, to: string): void {
  copyFileSync(from, `${to}.new`)
  renameSync(`${to}.new`, to)
}

async function start(env: Record<string, string>): Promise<TestIngest> {
  const server = await startIngest(database, { MAIL_DOMAINS: DOMAIN, SMTP_TLS_RELOAD_CHECK_MS: '100', SMTP_PARSE_WORKERS: '0', SMTP_CLOSE_TIMEOUT_MS: '0', ...env })
  servers.push(server)
  return server
}

/** A client that insists on STARTTLS and trusts only `caFile`, for the host name `servername`. */
function tlsClient(port: number, caFile: string, servername: string) {
  return nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, requireTLS: true, tls: { ca: [readFileSync(caFile)], servername } })
}

/** Resolves true once the client completes STARTTLS with a certificate it trusts, false when the handshake is refused. */
async function handshakes(client: ReturnType<typeof tlsClient>): Promise<boolean> {
  try {
    return await client.verify()
  } catch {
    return false
  } finally {
    client.close()
  }
}

/** The server's EHLO lines. */
function ehlo(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    let text = ''
    socket.on('data', (d) => {
      text += d.toString()
      if (/^220 /m.test(text) && !text.includes('EHLO sent')) {
        text += 'EHLO sent\n'
        socket.write('EHLO client.test\r\n')
      } else if (/^250 /m.test(text.split('EHLO sent')[1] ?? '')) {
        socket.end('QUIT\r\n')
        resolve(text.split('EHLO sent')[1]!)
      }
    })
    socket.on('error', reject)
  })
}

beforeAll(async () => {
  database = await openTestDatabase('mail-ingest-tls')
  ;({ dir, path: dbPath, storage, db } = database)
  await db.insertInto('inbox').values({ address: `codes@${DOMAIN}`, local_part: 'codes', domain: DOMAIN, created_at: Date.now(), expires_at: Date.now() + 3_600_000 }).execute()
})

afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()))
  servers = []
})

afterAll(async () => {
  await database.close()
})

describe('STARTTLS', () => {
  it('is offered with a configured certificate, and mail sent over it is stored', async () => {
    const first = makeCertificate('mx1.tempbox.test')
    const { ingest, port } = await start({ SMTP_TLS_CERT: first.cert, SMTP_TLS_KEY: first.key })
    expect(ingest.tlsStatus).toMatch(/^\[smtp\] STARTTLS offered with CN=mx1\.tempbox\.test, valid until \d{4}-/)
    expect(await ehlo(port)).toContain('250-STARTTLS')
    const info = await tlsClient(port, first.cert, 'mx1.tempbox.test').sendMail({ from: 'a@example.test', to: `codes@${DOMAIN}`, subject: 'Your code 123456', text: 'Code: 123456' })
    expect(info.response).toMatch(/^250 /)
    const stored = await db.selectFrom('message').select('subject').where('subject', '=', 'Your code 123456').execute()
    expect(stored).toHaveLength(1)
  })

  it('serves a replaced certificate without a restart, and keeps the old one through a half-done rotation', async () => {
    const first = makeCertificate('mx1.tempbox.test')
    const second = makeCertificate('mx2.tempbox.test')
    const live = { cert: join(dir, 'live.crt'), key: join(dir, 'live.key') }
    install(first.cert, live.cert)
    install(first.key, live.key)
    const { port } = await start({ SMTP_TLS_CERT: live.cert, SMTP_TLS_KEY: live.key })
    expect(await handshakes(tlsClient(port, first.cert, 'mx1.tempbox.test'))).toBe(true)
    expect(await handshakes(tlsClient(port, second.cert, 'mx2.tempbox.test'))).toBe(false)

    // The new certificate arrives before its key: the pair does not match, so the first stays in use.
    install(second.cert, live.cert)
    const errors: string[] = []
    const original = console.error
    console.error = (line: string) => errors.push(line)
    try {
      await waitUntil(() => errors.some((e) => e.includes('TLS certificate not reloaded, keeping the current one')))
    } finally {
      console.error = original
    }
    expect(await handshakes(tlsClient(port, first.cert, 'mx1.tempbox.test'))).toBe(true)

    // Then its key: from now on the second is served.
    install(second.key, live.key)
    await waitUntil(() => handshakes(tlsClient(port, second.cert, 'mx2.tempbox.test')))
    expect(await handshakes(tlsClient(port, first.cert, 'mx1.tempbox.test'))).toBe(false)
  })

  it('is not offered without a certificate, and the start-up line says mail arrives in clear text', async () => {
    const { ingest, port } = await start({})
    expect(ingest.tlsStatus).toBe('[smtp] no TLS certificate (SMTP_TLS_CERT, SMTP_TLS_KEY): mail arrives in clear text')
    expect(await ehlo(port)).not.toContain('STARTTLS')
    expect(await handshakes(tlsClient(port, makeCertificate('mx1.tempbox.test').cert, 'mx1.tempbox.test'))).toBe(false)
  })

  it('refuses to start with a key that does not match the certificate, or with only one of the two', () => {
    const first = makeCertificate('mx1.tempbox.test')
    const second = makeCertificate('mx2.tempbox.test')
    const config = loadConfig({ SMTP_PORT: '0', DATABASE_PATH: dbPath, MAIL_DOMAINS: DOMAIN, SMTP_TLS_CERT: first.cert, SMTP_TLS_KEY: second.key })
    expect(() => createSmtpServer({ storage, config })).toThrow(/key values mismatch/)
    expect(() => loadConfig({ SMTP_TLS_CERT: first.cert })).toThrow('SMTP_TLS_CERT and SMTP_TLS_KEY must be set together (or neither)')
  })
})

/** Polls `check` until it holds (the reload is seen by a stat poll, so it comes within a few intervals). */
async function waitUntil(check: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out')
    await new Promise((r) => setTimeout(r, 50))
  }
}
