import { describe, expect, it } from 'vitest'
import { buildApp } from '../src/app.js'
import { loadConfig } from '../src/config.js'

/** The app's log output at LOG_LEVEL=info for a few requests: the lines its logger writes, as they would reach stdout. */
async function logOf(env: Record<string, string>): Promise<string> {
  let log = ''
  const config = loadConfig({ DATABASE_PATH: ':memory:', LOG_LEVEL: 'info', WEB_DIST_DIR: '', ...env })
  const app = await buildApp(config, undefined, { logStream: { write: (line) => void (log += line) } })
  app.get('/api/test-failure', async () => {
    throw new Error('a failure worth logging')
  })
  app.get('/api/test-quiet', { logLevel: 'warn' }, async (request) => {
    request.log.info('below this route level')
    request.log.warn('at this route level')
    return {}
  })
  await app.inject({ method: 'GET', url: '/api/health' })
  await app.inject({ method: 'GET', url: '/api/test-failure' })
  await app.inject({ method: 'GET', url: '/api/config' })
  await app.inject({ method: 'GET', url: '/api/no-such-route' })
  await app.inject({ method: 'GET', url: '/api/test-quiet' })
  app.log.info('the end')
  await app.close()
  return log
}

describe('access log', () => {
  it('writes no line per request by default, while the app still logs, a failed request included', async () => {
    const log = await logOf({})
    expect(log).toContain('the end')
    expect(log).toContain('a failure worth logging')
    expect(log).not.toContain('incoming request')
    expect(log).not.toContain('/api/health')
    // A request's lines still name it, and a route's own level still decides (the child logger is made on demand).
    const line = (text: string) => JSON.parse(log.split('\n').find((l) => l.includes(text))!) as { reqId?: string; level: number }
    expect(line('a failure worth logging').reqId).toMatch(/^req-/)
    expect(line('at this route level')).toMatchObject({ level: 40, reqId: expect.stringMatching(/^req-/) })
    expect(log).not.toContain('below this route level')
  })

  it('writes the request lines with LOG_REQUESTS=true', async () => {
    const log = await logOf({ LOG_REQUESTS: 'true' })
    expect(log).toContain('incoming request')
    expect(log).toContain('request completed')
    expect(log).toContain('"url":"/api/health"')
    expect(log).toMatch(/"reqId":"req-[^"]+"[^\n]*"msg":"incoming request"/)
  })
})
