import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { CONFIG_DOC, expectedConfigDoc, renderTable } from '../../scripts/config-docs.js'
import { REPO_ROOT } from '../support/stack.js'

const scratch = mkdtempSync(join(tmpdir(), 'tempbox-config-docs-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

/** A checkout holding only the given source files, to see what the generator makes of code it has not met. */
function checkoutWith(files: Record<string, string>): string {
  const root = mkdtempSync(join(scratch, 'root-'))
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  return root
}

describe('docs/configuration.md', () => {
  it('is what `pnpm docs:config` writes from the code, every variable the code reads with a meaning', () => {
    const { table, problems } = renderTable()
    expect(problems).toEqual([])
    const current = readFileSync(CONFIG_DOC, 'utf8')
    expect(current, 'docs/configuration.md differs from the code: run `pnpm docs:config`').toBe(expectedConfigDoc(current, table))
  })

  it('names every variable a config module reads, as a plain search of the code finds them', () => {
    const doc = readFileSync(CONFIG_DOC, 'utf8')
    const modules = ['apps/api/src/config.ts', 'apps/mail-ingest/src/config.ts', 'apps/mail-ingest/src/mail-auth/config.ts', 'apps/mcp/src/config.ts']
    const read = modules.flatMap((path) => [...readFileSync(join(REPO_ROOT, path), 'utf8').matchAll(/env\.([A-Z_]+)|\w+\((?:env, )?'([A-Z_]+)'/g)].map((m) => m[1] ?? m[2]!))
    expect(read.length).toBeGreaterThan(80)
    expect(read.filter((name) => !doc.includes(`| \`${name}\` |`))).toEqual([])
  })

  it('refuses a variable the code starts reading without a meaning, and shows a changed default', () => {
    const root = checkoutWith({
      'apps/api/src/config.ts': "export const load = (env: Env) => ({ port: int('PORT', 4000), fresh: int('FRESH_LIMIT', 7, 1), tls: env.FRESH_SWITCH, on: onOff(env, 'FRESH_FLAG', true) })",
    })
    const { table, problems } = renderTable(root)
    expect(problems).toContain("FRESH_LIMIT is read by the code but has no entry in any app's src/env-docs.ts")
    expect(problems).toContain("FRESH_SWITCH is read by the code but has no entry in any app's src/env-docs.ts")
    expect(problems).toContain("FRESH_FLAG is read by the code but has no entry in any app's src/env-docs.ts")
    expect(table).toContain('| `PORT` | api | `4000` |')
  })

  it('`pnpm docs:config --check` passes on this checkout', () => {
    const run = spawnSync('pnpm', ['--silent', 'docs:config', '--check'], { cwd: REPO_ROOT, encoding: 'utf8' })
    expect(run.stderr).not.toContain('[docs:config]')
    expect(run.status).toBe(0)
  })
})
