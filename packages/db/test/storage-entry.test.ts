import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

/** Every module a fresh Node process loads to import `entry` (a file of this package), as file URLs. */
function modulesLoadedBy(entry: string): string[] {
  const script = `
    const { register } = await import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))})
    const loaded = []
    register({ onImport: (url) => loaded.push(url) })
    await import(${JSON.stringify(new URL(entry, import.meta.url).href)})
    console.log(JSON.stringify(loaded))`
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: fileURLToPath(new URL('..', import.meta.url)), encoding: 'utf8' })
  expect(run.stderr).toBe('')
  return JSON.parse(run.stdout) as string[]
}

// Each ingest thread that writes (store, checkpoint, sender check) imports this entry: what it loads, each thread holds.
describe('the storage entry (@tempbox/db/storage)', () => {
  it('opens storage without loading the migrations or @tempbox/mail-derive, which only migrating needs', () => {
    const loaded = modulesLoadedBy('../src/storage/index.ts')
    expect(loaded.some((url) => url.endsWith('/storage/sqlite/open.ts'))).toBe(true)
    expect(loaded.filter((url) => url.includes('/migrations/') || url.includes('mail-derive'))).toEqual([])
  })
})
