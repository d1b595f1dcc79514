import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createDb } from '@tempbox/db'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { migrateApart } from '../src/migrate-apart.js'

/** Every module a fresh Node process loads to import `entries` (files of this app), as file URLs. */
function modulesLoadedBy(entries: string[]): string[] {
  const imports = entries.map((entry) => `await import(${JSON.stringify(new URL(entry, import.meta.url).href)})`).join('\n')
  const script = `
    const { register } = await import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))})
    const loaded = []
    register({ onImport: (url) => loaded.push(url) })
    ${imports}
    console.log(JSON.stringify(loaded))
    process.exit(0)`
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: fileURLToPath(new URL('..', import.meta.url)), encoding: 'utf8' })
  expect(run.stderr).toBe('')
  return JSON.parse(run.stdout) as string[]
}

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
  vi.restoreAllMocks()
})

// What the SMTP thread loads, it holds for the process's life (issue 29): parsing and migrating happen on other threads.
describe('the SMTP thread', () => {
  it('loads neither mailparser, @tempbox/mail-derive nor the migrations (main.ts\'s imports)', () => {
    const loaded = modulesLoadedBy(['../src/config.ts', '../src/heartbeat.ts', '../src/migrate-apart.ts', '../src/smtp-server.ts'])
    expect(loaded.some((url) => url.endsWith('/src/smtp-server.ts'))).toBe(true)
    expect(loaded.filter((url) => /mailparser|mail-derive|\/migrations\/(?!names|pending)|parse-message|derive-view/.test(url))).toEqual([])
  })

  it('has the migrations run on a thread of their own, which brings a new database to the latest schema', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tempbox-migrate-apart-'))
    dirs.push(dir)
    await migrateApart({ path: join(dir, 'tempbox.sqlite') })
    const { db } = createDb({ path: join(dir, 'tempbox.sqlite') })
    const tables = await db.introspection.getTables()
    await db.destroy()
    expect(tables.map((t) => t.name)).toEqual(expect.arrayContaining(['inbox', 'message', 'message_content', 'message_auth']))
  })

  it('does not start when the migrations cannot run, and says why', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tempbox-migrate-apart-'))
    dirs.push(dir)
    // A file where the database's directory should be: nothing can be created under it.
    writeFileSync(join(dir, 'not-a-dir'), '')
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    await expect(migrateApart({ path: join(dir, 'not-a-dir', 'tempbox.sqlite') })).rejects.toThrow('worker exited with code 1')
    expect(logged.mock.calls.flat().map(String).join(' ')).toMatch(/\[smtp\] worker failed: Error: .*not-a-dir/)
  })
})
