import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

/** The app's log output at LOG_LEVEL=info for three requests, from a child process (a real logger writes to fd 1). */
function logOf(env: Record<string, string>): string {
  const script = `
    import { loadConfig } from './src/config.ts'
    import { buildApp } from './src/app.ts'
    const app = await buildApp(loadConfig(${JSON.stringify({ DATABASE_PATH: ':memory:', LOG_LEVEL: 'info', WEB_DIST_DIR: '', ...env })}))
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
  `
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: fileURLToPath(new URL('..', import.meta.url)), encoding: 'utf8' })
  expect(run.status, run.stderr).toBe(0)
  return run.stdout
}

describe('access log', () => {
  it('writes no line per request by default, while the app still logs, a failed request included', () => {
    const log = logOf({})
    expect(log).toContain('the end')
    expect(log).toContain('a failure worth logging')
    expect(log).not.toContain('incoming request')
    expect(log).not.toContain('/api/health')
    // A request's lines still name it, and a route's own level still decides (the child logger is made on demand).
    const line = (text: string) => JSON.parse(log.split('\n').find((l) => l.includes(text))!) as { reqId?: string; level: number }
    expect(line('a failure worth logging').reqId).toMatch(/^req-/)
    expect(line('at this route level')).toMatchObject({ level: 40, reqId: expect.stringMatching(/^req-/) })
    expect(log).not.toContain('below this route level')
  }, 60_000)

  it('writes the request lines with LOG_REQUESTS=true', () => {
    const log = logOf({ LOG_REQUESTS: 'true' })
    expect(log).toContain('incoming request')
    expect(log).toContain('request completed')
    expect(log).toContain('"url":"/api/health"')
    expect(log).toMatch(/"reqId":"req-[^"]+"[^\n]*"msg":"incoming request"/)
  }, 60_000)
})
