import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../support/repo-root.js'

const LAUNCHER = join(REPO_ROOT, 'scripts', 'run-source.mjs')
const scratch = mkdtempSync(join(tmpdir(), 'tempbox-run-source-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

/** A package with a command that reports what it sees of itself, importing a module from a folder beside it. */
function commandPackage(): { root: string; entry: string; greeting: string } {
  const root = mkdtempSync(join(scratch, 'pkg-'))
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'fixture', type: 'module' }))
  mkdirSync(join(root, 'src', 'cli'), { recursive: true })
  const greeting = join(root, 'src', 'greeting.ts')
  writeFileSync(greeting, "export const greeting: string = 'hello'\nexport const where = import.meta.url\n")
  const entry = join(root, 'src', 'cli', 'say.ts')
  writeFileSync(
    entry,
    [
      "import { greeting, where } from '../greeting.js'",
      'const args: string[] = process.argv.slice(2)',
      'console.log(JSON.stringify({ greeting, where, self: import.meta.url, script: process.argv[1], args }))',
      'process.exitCode = args.length',
    ].join('\n'),
  )
  return { root, entry, greeting }
}

function run(entry: string, args: string[]): { status: number; output: Record<string, unknown> } {
  try {
    return { status: 0, output: JSON.parse(execFileSync('node', [LAUNCHER, entry, ...args], { encoding: 'utf8' })) }
  } catch (error) {
    const failed = error as { status: number; stdout: string }
    return { status: failed.status, output: JSON.parse(failed.stdout) }
  }
}

describe('scripts/run-source.mjs, which runs the TypeScript commands (`pnpm owner:promote`, `pnpm mcp`…)', () => {
  it('runs the command as tsx would: its own file and arguments, each module at its own URL, its exit code', () => {
    const { entry, greeting } = commandPackage()
    const { status, output } = run(entry, ['--check', 'me@example.com'])
    expect(output).toEqual({
      greeting: 'hello',
      where: pathToFileURL(greeting).href,
      self: pathToFileURL(entry).href,
      script: entry,
      args: ['--check', 'me@example.com'],
    })
    expect(status).toBe(2)
  })

  it('keeps the bundle in the package until a file in it changes, then runs the new code', () => {
    const { root, entry, greeting } = commandPackage()
    const bundle = join(root, 'node_modules', '.cache', 'tempbox-run', 'src-cli-say.mjs')
    expect(run(entry, []).output.greeting).toBe('hello')
    const made = statSync(bundle).mtimeMs
    expect(run(entry, []).output.greeting).toBe('hello')
    expect(statSync(bundle).mtimeMs).toBe(made)

    writeFileSync(greeting, "export const greeting: string = 'good evening'\nexport const where = import.meta.url\n")
    // A change time the stamp cannot have seen, even on a file system with coarse times.
    const later = new Date(made + 5_000)
    utimesSync(greeting, later, later)
    expect(run(entry, []).output.greeting).toBe('good evening')
  })

  it('says how to call it when no command is named', () => {
    let failure: { status: number; stderr: string } | undefined
    try {
      execFileSync('node', [LAUNCHER], { encoding: 'utf8', stdio: 'pipe' })
    } catch (error) {
      failure = error as { status: number; stderr: string }
    }
    expect(failure?.status).toBe(2)
    expect(failure?.stderr).toContain('Usage: node scripts/run-source.mjs <entry.ts>')
  })
})
