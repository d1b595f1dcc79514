import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import type { App } from '../src/app.js'
import { loadConfig } from '../src/config.js'
import { buildTestApp } from './helper.js'

let app: App | undefined
afterEach(async () => {
  await app?.close()
  app = undefined
})

const REFUSAL = 'TRUST_PROXY=true would let every client choose its own IP for every limit. Set the number of proxies in front of the api'

describe('TRUST_PROXY (issue 26)', () => {
  it('refuses `true` with a sentence asking for a hop count or the proxies’ addresses', () => {
    expect(() => loadConfig({ DATABASE_PATH: ':memory:', TRUST_PROXY: 'true' })).toThrow(REFUSAL)
    expect(loadConfig({ DATABASE_PATH: ':memory:', TRUST_PROXY: '1' }).trustProxy).toBe(1)
    expect(loadConfig({ DATABASE_PATH: ':memory:', TRUST_PROXY: '10.0.0.0/8' }).trustProxy).toBe('10.0.0.0/8')
  })

  it('the api does not start with TRUST_PROXY=true', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      env: { ...process.env, DATABASE_PATH: ':memory:', PORT: '0', METRICS_PORT: '0', TRUST_PROXY: 'true', LOG_LEVEL: 'silent' },
      encoding: 'utf8',
      timeout: 60_000,
    })
    expect(run.status).not.toBe(0)
    expect(run.stderr).toContain(REFUSAL)
  }, 90_000)

  it('with a hop count, a client cannot choose its IP by writing X-Forwarded-For itself', async () => {
    app = await buildTestApp({ TRUST_PROXY: '1' })
    const base = await app.listen({ host: '127.0.0.1', port: 0 })
    // As one proxy passes it on: the client's own header first, the address the proxy saw appended.
    const res = await fetch(`${base}/api/ip`, { headers: { 'x-forwarded-for': '1.1.1.1, 8.8.4.4' } })
    expect(await res.json()).toMatchObject({ ip: '8.8.4.4' })
  })
})
