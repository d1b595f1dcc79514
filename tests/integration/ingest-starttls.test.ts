import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startStack, waitFor, type Stack } from '../support/stack'

/**
 * STARTTLS over the real mail-ingest process, with Python's smtplib as the sending server (as another MTA would
 * speak to us) and a certificate made here with openssl, verified by the client against it.
 */

/** Runs a program to its end; its exit code and output. */
function run(command: string, args: string[], input?: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] })
    let out = ''
    child.stdout.on('data', (d: Buffer) => (out += d.toString()))
    child.stderr.on('data', (d: Buffer) => (out += d.toString()))
    child.once('error', reject)
    child.once('exit', (code) => resolve({ code, out }))
    child.stdin.end(input ?? '')
  })
}

/**
 * The client: EHLO, STARTTLS when asked (verifying the certificate against `cafile` and the host 127.0.0.1), EHLO
 * again, one message. Prints one JSON line of what it saw.
 */
const SMTP_CLIENT = `
import json, smtplib, ssl, sys
port, to, cafile, use_tls = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4] == '1'
s = smtplib.SMTP('127.0.0.1', port, timeout=30)
s.ehlo('client.example')
seen = {'offered': s.has_extn('starttls')}
if use_tls:
    try:
        code, _ = s.starttls(context=ssl.create_default_context(cafile=cafile))
        seen['starttls'] = code
        seen['version'] = s.sock.version()
        seen['offered_after'] = s.has_extn('starttls')
    except smtplib.SMTPNotSupportedError as e:
        seen['refused'] = str(e)
msg = 'From: a@example.com\\r\\nTo: %s\\r\\nSubject: Over %s\\r\\n\\r\\nYour code is 482913\\r\\n' % (to, 'TLS' if seen.get('starttls') == 220 else 'clear text')
seen['sent'] = s.sendmail('a@example.com', [to], msg) == {}
s.quit()
print(json.dumps(seen))
`

async function createAddress(stack: Stack): Promise<string> {
  const res = await fetch(`${stack.apiUrl}/api/email/generate`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
  return ((await res.json()) as { email: string }).email
}

async function subjects(stack: Stack, address: string): Promise<string[]> {
  const res = await fetch(`${stack.apiUrl}/api/email/${encodeURIComponent(address)}`)
  return ((await res.json()) as { messages: { subject: string }[] }).messages.map((m) => m.subject)
}

async function smtpClient(stack: Stack, to: string, cafile: string, useTls: boolean): Promise<Record<string, unknown>> {
  const { code, out } = await run('python3', ['-c', SMTP_CLIENT, String(stack.smtpPort), to, cafile, useTls ? '1' : '0'])
  expect(code, out).toBe(0)
  return JSON.parse(out.trim().split('\n').at(-1)!) as Record<string, unknown>
}

describe('STARTTLS with a certificate', () => {
  let stack: Stack
  let dir: string
  let cert: string

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tempbox-tls-'))
    cert = join(dir, 'cert.pem')
    const key = join(dir, 'key.pem')
    const made = await run('openssl', [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2',
      '-keyout', key, '-out', cert, '-subj', '/CN=mx.tempbox.test', '-addext', 'subjectAltName=DNS:mx.tempbox.test,IP:127.0.0.1',
    ])
    expect(made.code, made.out).toBe(0)
    stack = await startStack({ env: { SMTP_TLS_CERT: cert, SMTP_TLS_KEY: key } })
  })

  afterAll(async () => {
    await stack?.stop()
    rmSync(dir, { recursive: true, force: true })
  })

  it('says at start which certificate it offers', async () => {
    await waitFor(() => stack.ingest.output().includes('[smtp] STARTTLS offered with'), 30_000, 'the start-up line')
    expect(stack.ingest.output()).toMatch(/\[smtp\] STARTTLS offered with CN=mx\.tempbox\.test, valid until \d{4}-\d\d-\d\dT/)
    expect(stack.ingest.output()).not.toContain('clear text')
  })

  it('offers STARTTLS; a client verifying the certificate upgrades and delivers the mail', async () => {
    const address = await createAddress(stack)
    const seen = await smtpClient(stack, address, cert, true)
    expect(seen).toMatchObject({ offered: true, starttls: 220, offered_after: false, sent: true })
    expect(seen.version).toMatch(/^TLSv1\.[23]$/)
    await waitFor(async () => (await subjects(stack, address)).includes('Over TLS'), 20_000, 'the mail sent over TLS')
  })

  it('still takes mail from a client that does not upgrade', async () => {
    const address = await createAddress(stack)
    expect(await smtpClient(stack, address, cert, false)).toMatchObject({ offered: true, sent: true })
    await waitFor(async () => (await subjects(stack, address)).includes('Over clear text'), 20_000, 'the mail sent in clear text')
  })
})

describe('without a certificate', () => {
  let stack: Stack

  beforeAll(async () => {
    stack = await startStack()
  })

  afterAll(async () => {
    await stack?.stop()
  })

  it('says at start that mail arrives in clear text, offers no STARTTLS, and refuses it', async () => {
    await waitFor(() => stack.ingest.output().includes('[smtp] no TLS certificate'), 30_000, 'the start-up line')
    expect(stack.ingest.output()).toContain('[smtp] no TLS certificate (SMTP_TLS_CERT, SMTP_TLS_KEY): mail arrives in clear text')
    const address = await createAddress(stack)
    const seen = await smtpClient(stack, address, '', true)
    expect(seen).toMatchObject({ offered: false, refused: expect.stringContaining('STARTTLS'), sent: true })
    await waitFor(async () => (await subjects(stack, address)).includes('Over clear text'), 20_000, 'the mail')
  })
})
