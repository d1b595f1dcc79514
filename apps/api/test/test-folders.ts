import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * Database folders made for this process's test apps. A closed app's folder goes when the next app is built (its close
 * has finished by then) or after its file; the rest when the process exits. At exit alone, they piled up: vitest ends
 * its workers with a signal, which skips 'exit', and each run left ~1,500 folders (1 MB each) in the temporary directory.
 * Apart from helper.ts, which loads the app: the setup file that imports this must not load modules a test mocks.
 */
const folders = new Map<string, { closed: boolean }>()

/** A new folder for one app; set `state.closed` once the app has closed. */
export function testFolder(): { dir: string; state: { closed: boolean } } {
  const dir = mkdtempSync(join(tmpdir(), 'tempbox-api-test-'))
  const state = { closed: false }
  folders.set(dir, state)
  return { dir, state }
}

/** Removes the folders of closed apps (of all apps with `all`); remove-folders.setup.ts runs it after each file. */
export function removeFolders(all: boolean): void {
  for (const [dir, app] of folders) {
    if (!all && !app.closed) continue
    rmSync(dir, { recursive: true, force: true })
    folders.delete(dir)
  }
}

process.once('exit', () => removeFolders(true))
