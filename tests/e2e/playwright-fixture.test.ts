import { spawn } from 'node:child_process'
import { randomInt } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import nodemailer, { type Transporter } from 'nodemailer'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REPO_ROOT, startStack, type Stack } from '../support/stack.js'

let stack: Stack
let smtp: Transporter
let site: Server
let siteUrl: string
const workDir = mkdtempSync(join(tmpdir(), 'tempbox-pw-'))

const page = (body: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>MyApp</title></head><body>${body}</body></html>`
const escape = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`)

/** A sign-up page as a real app has one: the address typed in gets a code by mail, the code typed back confirms. */
function signUpSite(): Server {
  const codes = new Map<string, string>()
  return createServer((req, res) => {
    let body = ''
    req.on('data', (chunk: Buffer) => (body += chunk.toString()))
    req.on('end', () => {
      void (async () => {
        const form = new URLSearchParams(body)
        res.setHeader('content-type', 'text/html; charset=utf-8')
        if (req.method === 'POST' && req.url === '/signup') {
          const email = form.get('email') ?? ''
          const code = String(randomInt(100_000, 1_000_000))
          codes.set(email, code)
          await smtp.sendMail({ from: 'MyApp <noreply@myapp.test>', to: email, subject: 'Confirm your email', text: `Welcome to MyApp!\n\nYour confirmation code is ${code}.\n` })
          return res.end(page(`<p>We sent a code to ${escape(email)}</p><form method="post" action="/confirm"><input type="hidden" name="email" value="${escape(email)}"><label>Code <input name="code"></label><button>Confirm</button></form>`))
        }
        if (req.method === 'POST' && req.url === '/confirm') {
          const ok = codes.get(form.get('email') ?? '') === form.get('code')
          return res.end(page(ok ? '<h1>Confirmed</h1>' : '<h1>Wrong code</h1>'))
        }
        res.end(page('<form method="post" action="/signup"><label>Email <input name="email" type="email"></label><button>Sign up</button></form>'))
      })().catch((error: unknown) => res.writeHead(500).end(String(error)))
    })
  })
}

beforeAll(async () => {
  stack = await startStack({ env: { MAX_ACTIVE_ADDRESSES_PER_IP: '50' } })
  smtp = nodemailer.createTransport({ host: '127.0.0.1', port: stack.smtpPort, secure: false, ignoreTLS: true })
  site = signUpSite()
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve))
  siteUrl = `http://127.0.0.1:${(site.address() as { port: number }).port}/`
})
afterAll(async () => {
  await new Promise((resolve) => site?.close(resolve))
  smtp?.close()
  await stack?.stop()
  rmSync(workDir, { recursive: true, force: true })
})

interface JsonReport {
  stats: { expected: number; unexpected: number; skipped: number; flaky: number }
  suites: { specs: { title: string; ok: boolean; tests: { annotations: { type: string; description?: string }[]; results: { status: string; errors: { message?: string }[] }[] }[] }[] }[]
}

describe('@tempbox/playwright under the real `playwright test` runner and Chromium', () => {
  it('gives each test a fresh inbox that reads the emailed code, and deletes it after the test', async () => {
    const report = join(workDir, 'report.json')
    const config = join(REPO_ROOT, 'tests/e2e/playwright-fixture/playwright.config.ts')
    let output = ''
    const exitCode = await new Promise<number | null>((resolve) => {
      const child = spawn('pnpm', ['exec', 'playwright', 'test', '-c', config], {
        cwd: join(REPO_ROOT, 'tests'),
        env: { ...process.env, TEMPBOX_URL: stack.apiUrl, SIGNUP_URL: siteUrl, PW_JSON_REPORT: report, PW_OUTPUT_DIR: join(workDir, 'results') },
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      child.stdout.on('data', (d: Buffer) => (output += d.toString()))
      child.stderr.on('data', (d: Buffer) => (output += d.toString()))
      child.once('exit', resolve)
    })
    const result = JSON.parse(readFileSync(report, 'utf8')) as JsonReport
    const specs = result.suites.flatMap((s) => s.specs)
    const errors = specs.flatMap((s) => s.tests.flatMap((t) => t.results.flatMap((r) => r.errors.map((e) => e.message))))
    expect(errors, output).toEqual([])
    expect(exitCode, output).toBe(0)
    expect(result.stats).toMatchObject({ expected: 2, unexpected: 0, skipped: 0, flaky: 0 })
    expect(specs.map((s) => [s.title, s.ok])).toEqual([
      ['signs up with the code mailed to a fresh inbox', true],
      ['gets an inbox of its own, deleted after the test', true],
    ])

    const address = specs[1]!.tests[0]!.annotations.find((a) => a.type === 'inbox')!.description!
    expect(address).toMatch(/@tempbox\.test$/)
    const gone = await fetch(`${stack.apiUrl}/api/email/${address}`)
    expect(gone.status).toBe(404)
    expect(await gone.json()).toMatchObject({ code: 'inbox_not_found' })
  })
})
