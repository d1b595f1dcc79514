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
    await app.inject({ method: 'GET', url: '/api/health' })
    await app.inject({ method: 'GET', url: '/api/test-failure' })
    await app.inject({ method: 'GET', url: '/api/config' })
    await app.inject({ method: 'GET', url: '/api/no-such-route' })
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
  }, 60_000)

  it('writes the request lines with LOG_REQUESTS=true', () => {
    const log = logOf({ LOG_REQUESTS: 'true' })
    expect(log).toContain('incoming request')
    expect(log).toContain('request completed')
    expect(log).toContain('"url":"/api/health"')
  }, 60_000)
})
