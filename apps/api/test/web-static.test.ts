import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { App } from '../src/app.js'
import { buildTestApp } from './helper.js'

const SCRIPT = `export const greeting = ${JSON.stringify('hello '.repeat(500))}\n`
const SMALL = 'export const small = 1\n'

describe('the web build served by the api', () => {
  let app: App
  let dir: string
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tempbox-web-static-'))
    mkdirSync(join(dir, 'assets'))
    writeFileSync(join(dir, 'index.html'), '<!doctype html><html><body><script type="module" src="/assets/app.js"></script></body></html>')
    writeFileSync(join(dir, 'assets', 'app.js'), SCRIPT)
    writeFileSync(join(dir, 'assets', 'app.js.br'), brotliCompressSync(SCRIPT))
    writeFileSync(join(dir, 'assets', 'app.js.gz'), gzipSync(SCRIPT))
    writeFileSync(join(dir, 'assets', 'small.js'), SMALL)
    app = await buildTestApp({ WEB_DIST_DIR: dir })
  })
  afterAll(async () => {
    await app?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  const get = (url: string, acceptEncoding?: string) => app.inject({ method: 'GET', url, headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} })

  it('sends the brotli copy of a script to a browser that accepts it, as the same script', async () => {
    const res = await get('/assets/app.js', 'gzip, deflate, br, zstd')
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-encoding']).toBe('br')
    expect(res.headers['content-type']).toMatch(/^text\/javascript|^application\/javascript/)
    expect(res.headers.vary).toMatch(/accept-encoding/i)
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(SCRIPT)
  })

  it('sends the gzip copy when brotli is not accepted, and the file itself when nothing is', async () => {
    const gzipped = await get('/assets/app.js', 'gzip, deflate')
    expect(gzipped.headers['content-encoding']).toBe('gzip')
    expect(gunzipSync(gzipped.rawPayload).toString()).toBe(SCRIPT)

    const plain = await get('/assets/app.js')
    expect(plain.statusCode).toBe(200)
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.headers.vary).toMatch(/accept-encoding/i)
    expect(plain.body).toBe(SCRIPT)
  })

  it('sends a file without compressed copies as it is, whatever the browser accepts', async () => {
    const res = await get('/assets/small.js', 'gzip, deflate, br')
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-encoding']).toBeUndefined()
    expect(res.body).toBe(SMALL)
  })
})
