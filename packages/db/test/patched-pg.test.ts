import { execFileSync } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const PACKAGE_DIR = join(dirname(fileURLToPath(import.meta.url)), '..')

/** Runs `code` in a fresh node (CommonJS, from this package, so `require('pg')` is our pg) and parses what it prints. */
function inFreshNode(code: string): Record<string, unknown> {
  return JSON.parse(execFileSync(process.execPath, ['-e', code], { cwd: PACKAGE_DIR, encoding: 'utf8' })) as Record<string, unknown>
}

/** Notes any read of globalThis.Response, Node's lazy getter that loads its whole fetch implementation. */
const WATCH_RESPONSE = `
  const own = Object.getOwnPropertyDescriptor(globalThis, 'Response')
  let responseRead = false
  Object.defineProperty(globalThis, 'Response', { configurable: true, get() { responseRead = true; return own.get ? own.get.call(globalThis) : own.value } })
`

describe("pg's runtime check (patched, patches/pg@8.23.0.patch)", () => {
  it('loads without reading Response, and still opens node:net sockets', () => {
    const result = inFreshNode(`${WATCH_RESPONSE}
      const pg = require('pg')
      const { getStream } = require('pg/lib/stream')
      const socket = getStream(false)
      console.log(JSON.stringify({ responseRead, isNetSocket: socket instanceof require('node:net').Socket, hasPool: typeof pg.Pool }))
    `)
    expect(result).toEqual({ responseRead: false, isNetSocket: true, hasPool: 'function' })
  })

  it('is the only change: upstream 8.23.0 reads Response there (so the check is what the patch saves)', () => {
    // The same function with the patch's lines taken back out, evaluated as pg ships it.
    const result = inFreshNode(`${WATCH_RESPONSE}
      const source = require('node:fs').readFileSync(require.resolve('pg/lib/stream'), 'utf8')
      const upstream = source.replace(/\\n  \\/\\/ Node\\.js has no \`navigator\`[\\s\\S]*?return false\\n  }\\n/, '\\n')
      const module = { exports: {} }
      new Function('module', 'require', upstream)(module, require)
      console.log(JSON.stringify({ patched: upstream !== source, responseRead }))
    `)
    expect(result).toEqual({ patched: true, responseRead: true })
  })
})
