import { spawn, type ChildProcess } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { IngestServer } from '../src/smtp-server.js'
import { refusalCount } from './refusals.js'
import { openTestDatabase, startIngest, type TestDatabase, type TestIngest } from './test-ingest.js'
import { rawSession } from '../../../tests/support/smtp-session.js'

/** Debian's haproxy package (.ci/run installs it where missing); HAPROXY_PATH where it lives elsewhere. */
const HAPROXY = process.env.HAPROXY_PATH ?? '/usr/sbin/haproxy'
const DOMAIN = 'tempbox.test'
let database: TestDatabase | undefined
let server: TestIngest | undefined
let ingest: IngestServer
let haproxy: ChildProcess
/** HAProxy's two SMTP entry points: `send-proxy` (v1) and `send-proxy-v2` to the same ingest. */
let v1Port: number
let v2Port: number

async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}


beforeAll(async () => {
  database = await openTestDatabase('mail-ingest-haproxy')
  const dataDir = database.dir
  server = await startIngest(database, {
    SMTP_CLOSE_TIMEOUT_MS: '0', MAIL_DOMAINS: DOMAIN, MAIL_AUTH: 'off', SMTP_PARSE_WORKERS: '0',
    SMTP_MAX_CLIENTS_PER_IP: '1', SMTP_PROXY_PROTOCOL: 'on', SMTP_TRUSTED_PROXIES: '127.0.0.1',
  })
  ;({ ingest } = server)
  const ingestPort = server.port
  ;[v1Port, v2Port] = [await freePort(), await freePort()]
  // The SMTP part of deploy/haproxy.cfg, with fixed servers instead of Docker's DNS, and health checks, which carry
  // the header too.
  writeFileSync(join(dataDir, 'haproxy.cfg'), [
    'defaults', '  mode tcp', '  timeout connect 5s', '  timeout client 30s', '  timeout server 30s',
    'frontend smtp-v1', `  bind 127.0.0.1:${v1Port}`, '  default_backend ingest-v1',
    'backend ingest-v1', `  server ingest 127.0.0.1:${ingestPort} send-proxy check inter 500`,
    'frontend smtp-v2', `  bind 127.0.0.1:${v2Port}`, '  default_backend ingest-v2',
    'backend ingest-v2', `  server ingest 127.0.0.1:${ingestPort} send-proxy-v2 check inter 500`, '',
  ].join('\n'))
  haproxy = spawn(HAPROXY, ['-db', '-f', join(dataDir, 'haproxy.cfg')], { stdio: ['ignore', 'ignore', 'inherit'] })
  // Up once a session through it is greeted (HAProxy closes connections it cannot pass on yet).
  await vi.waitFor(async () => {
    const s = rawSession(v2Port, '127.0.0.200')
    const reply = await s.reply().finally(() => s.socket.destroy())
    if (!reply.startsWith('220 ')) throw new Error(`not greeted yet: ${reply}`)
  }, { timeout: 20_000, interval: 200 })
})

afterAll(async () => {
  if (haproxy && haproxy.exitCode === null) {
    const exited = new Promise((resolve) => haproxy.once('exit', resolve))
    haproxy.kill('SIGTERM')
    await exited
  }
  await server?.close()
  await database?.close()
})

describe('mail-ingest behind a real HAProxy', () => {
  it('sees each client\'s own address through send-proxy and send-proxy-v2, and HAProxy\'s checks are served', async () => {
    const first = rawSession(v1Port, '127.0.0.5')
    expect(await first.reply()).toMatch(/^220 /)
    // The same client through the other header version: over its SMTP_MAX_CLIENTS_PER_IP of 1.
    const again = rawSession(v2Port, '127.0.0.5')
    expect(await again.reply()).toMatch(/^421 4\.7\.0 Too many connections from your network/)
    // Another client through the same balancer has its own share.
    const other = rawSession(v1Port, '127.0.0.6')
    expect(await other.reply()).toMatch(/^220 /)
    expect(await other.command('EHLO client.example')).toMatch(/^250 /)
    for (const s of [first, other]) s.socket.destroy()
    expect([await refusalCount(ingest, 'proxy_header'), await refusalCount(ingest, 'proxy_untrusted')]).toEqual([0, 0])
  })
})
