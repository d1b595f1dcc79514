import { execFile } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import nodemailer, { type Transporter } from 'nodemailer'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readProcess, REPO_ROOT, startStack, waitFor, type Stack } from '../support/stack.js'

/** Fails a process that resolves any TypeScript module (see the file). */
const REFUSE_TYPESCRIPT = join(REPO_ROOT, 'tests/support/refuse-typescript.mjs')

let stack: Stack
let smtp: Transporter

beforeAll(async () => {
  // `pnpm build` for the two apps and the packages they use; turbo replays it from its cache when nothing changed.
  await promisify(execFile)(
    join(REPO_ROOT, 'node_modules/.bin/turbo'),
    ['run', 'build', '--filter=@tempbox/api', '--filter=@tempbox/mail-ingest', '--env-mode=loose', '--output-logs=errors-only'],
    { cwd: REPO_ROOT },
  )
  // Two API processes: the cluster's workers must start on the compiled code too, on an empty file they migrate, as on
  // a first `pnpm start`.
  stack = await startStack({ compiled: true, parseWorkers: true, freshDatabase: true, nodeArgs: ['--import', REFUSE_TYPESCRIPT], env: { API_PROCESSES: '2' } })
  smtp = nodemailer.createTransport({ host: '127.0.0.1', port: stack.smtpPort, secure: false, ignoreTLS: true })
})
afterAll(async () => {
  smtp?.close()
  await stack?.stop()
})

describe('the compiled api and mail-ingest (pnpm build, then node dist/…)', () => {
  it('run node on the emitted JavaScript, without a TypeScript loader', () => {
    for (const [proc, entry] of [[stack.api, 'apps/api/dist/server.js'], [stack.ingest, 'apps/mail-ingest/dist/main.js']] as const) {
      const { cmdline } = readProcess(proc.child.pid!)!
      expect(cmdline).toContain(join(REPO_ROOT, entry))
      expect(cmdline).not.toContain('tsx')
    }
  })

  it('are ASCII-only bundles, one per thread, so that V8 keeps each source at one byte a character', () => {
    const bundles = ['apps/api/dist/server.js', ...readdirSync(join(REPO_ROOT, 'apps/mail-ingest/dist')).filter((f) => /^(main|.*-worker)\.js$/.test(f)).map((f) => `apps/mail-ingest/dist/${f}`)]
    expect(bundles).toEqual(expect.arrayContaining(['apps/mail-ingest/dist/main.js', 'apps/mail-ingest/dist/store-worker.js', 'apps/mail-ingest/dist/parse-worker.js', 'apps/mail-ingest/dist/search-index-worker.js']))
    for (const bundle of bundles) expect(/[^\x00-\x7f]/.exec(readFileSync(join(REPO_ROOT, bundle), 'utf8'))?.[0], bundle).toBeUndefined()
  })

  it('name functions at run time only in the main threads: the worker bundles run mailparser and the writer per message', () => {
    // esbuild's keepNames wraps every function it makes, inner closures included, in a defineProperty call.
    const keepsNames = (bundle: string) => readFileSync(join(REPO_ROOT, bundle), 'utf8').includes('__name(')
    expect(keepsNames('apps/api/dist/server.js')).toBe(true)
    expect(keepsNames('apps/mail-ingest/dist/main.js')).toBe(true)
    expect(keepsNames('apps/mail-ingest/dist/parse-worker.js')).toBe(false)
    expect(keepsNames('apps/mail-ingest/dist/store-worker.js')).toBe(false)
    expect(keepsNames('apps/mail-ingest/dist/search-index-worker.js')).toBe(false)
  })

  it('give the search-index thread better-sqlite3 and the indexer, not Kysely: its isolate stays small', () => {
    const bundle = readFileSync(join(REPO_ROOT, 'apps/mail-ingest/dist/search-index-worker.js'), 'utf8')
    expect(bundle).toContain('message_search_index')
    // esbuild heads each bundled module with its path.
    expect(bundle).not.toMatch(/\/kysely@/)
    expect(readFileSync(join(REPO_ROOT, 'apps/mail-ingest/dist/store-worker.js'), 'utf8')).toMatch(/\/kysely@/)
  })

  it('ship the ASN table built by pnpm build beside the api, so no running api parses the CSV', () => {
    const version = (JSON.parse(readFileSync(join(REPO_ROOT, 'apps/api/node_modules/@ip-location-db/asn/package.json'), 'utf8')) as { version: string }).version
    expect(statSync(join(REPO_ROOT, `apps/api/dist/geoip/asn2-${version}.bin`)).size).toBeGreaterThan(1024 * 1024)
  })

  it('keep what the escaped comments and regular expressions meant (scripts/ascii-only.mjs)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tempbox-ascii-'))
    try {
      const file = join(dir, 'module.mjs')
      // Identity escapes, astral characters with and without the u flag, a class, an escaped backslash, a comment.
      const checks = String.raw`/[“”]x/iu.test('\u201dX'), /\“y/.test('\u201cy'), /😀+/u.test('\u{1f600}\u{1f600}'), /^[😀]$/u.test('\u{1f600}'), /^😀$/.test('\u{1f600}'), /\\“/.test('\\\u201c'), /подтверд/i.test('\u041f\u041e\u0414\u0422\u0412\u0415\u0420\u0414\u0418\u0422\u0415'), !/^.$/.test('\u{1f600}')`
      writeFileSync(file, `// a comment’s quote
export const checks = [${checks}]
export const text = "“plain” string"
`)
      const before = (await import(`${pathToFileURL(file).href}?before`)) as { checks: boolean[]; text: string }
      const { asciiOnly } = (await import(pathToFileURL(join(REPO_ROOT, 'scripts/ascii-only.mjs')).href)) as { asciiOnly: (file: string) => number }
      // esbuild escapes strings itself; the script leaves them, and says how many non-ASCII characters stay.
      expect(asciiOnly(file)).toBe('“plain”'.length - 'plain'.length)
      const after = (await import(`${pathToFileURL(file).href}?after`)) as { checks: boolean[]; text: string }
      expect(before.checks).toEqual([true, true, true, true, true, true, true, true])
      expect(after).toEqual(before)
      expect(readFileSync(file, 'utf8').split('\n')[0]).toBe('// a comment\\u2019s quote')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('report ready, take a mail over real SMTP and serve it through the API', async () => {
    // The readiness answer Docker's HEALTHCHECK asks: the database, mail-ingest's heartbeat and the change feed.
    await waitFor(async () => (await fetch(`${stack.apiUrl}/api/health`)).status === 200, 30_000, 'readiness')

    const generated = await fetch(`${stack.apiUrl}/api/email/generate`, { method: 'POST' })
    expect(generated.status).toBe(200)
    const { email: address } = (await generated.json()) as { email: string }
    const waiting = fetch(`${stack.apiUrl}/api/email/${address}/wait?timeout=30&since=0`)
    const info = await smtp.sendMail({ from: 'Acme <no-reply@acme.test>', to: address, subject: 'Your code', text: 'Your code is 482913.' })
    expect(info.response).toMatch(/^250/)

    const waited = (await (await waiting).json()) as { timedOut: boolean; message: { id: string; subject: string; verification: { codes: string[] } } }
    expect(waited.timedOut).toBe(false)
    expect(waited.message).toMatchObject({ subject: 'Your code', verification: { codes: ['482913'] } })
    const read = await fetch(`${stack.apiUrl}/api/email/${address}/messages/${waited.message.id}`)
    expect(read.status).toBe(200)
    expect(await read.json()).toMatchObject({ subject: 'Your code', fromAddress: 'no-reply@acme.test', content: expect.stringContaining('Your code is 482913.') })

    // Nothing was refused on the way: a TypeScript module anywhere (a worker thread included) would have ended a process.
    expect(stack.api.child.exitCode, stack.api.output()).toBeNull()
    expect(stack.ingest.child.exitCode, stack.ingest.output()).toBeNull()
    expect(stack.api.output() + stack.ingest.output()).not.toContain('refused to load TypeScript')
  })
})
