import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

/** Real messages from other projects' test suites (tests/fixtures/real-mail, with their sources and licences). */
export const REAL_MAIL_DIR = new URL('../fixtures/real-mail/', import.meta.url).pathname

/** Every .eml file of the real-mail corpus (or of a folder of it), depth first. */
export function realMailFiles(dir = REAL_MAIL_DIR): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return name === 'LICENSES' ? [] : realMailFiles(path)
    return name.endsWith('.eml') ? [path] : []
  })
}
