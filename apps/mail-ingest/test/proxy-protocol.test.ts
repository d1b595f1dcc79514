import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Db } from '@tempbox/db'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { RefusalReason } from '../src/metrics.js'
import { refusalCount } from './refusals.js'
import { openTestDatabase, startIngest, type TestDatabase, type TestIngest } from './test-ingest.js'
import { plainMail } from '../../../tests/support/dkim.js'
import { proxyV1, proxyV2 } from '../../../tests/support/proxy-header.js'
import { rawSession } from '../../../tests/support/smtp-session.js'

const DOMAIN = 'tempbox.test'
/** The balancer: every session below that comes from it is another client behind it. */
const BALANCER = '127.0.0.2'
const STRANGER = '127.0.0.3'
let database: TestDatabase
let db: Db
const servers: TestIngest[] = []

beforeAll(async () => {
  database = await openTestDatabase('mail-ingest-proxy')
  // SPF of proxied.example allows one client address only: the verdict shows which address the check was given.
  writeFileSync(join(database.dir, 'dns.json'), JSON.stringify({ 'proxied.example': { TXT: [['v=spf1 ip4:198.51.100.7 -all']] } }))
  db = database.db
})

afterAll(() => database.close())

afterEach(async () => {
  for (const server of servers.splice(0)) await server.close()
})

async function startServer(env: Record<string, string> = {}): Promise<number> {
  const server = await startIngest(database, {
    SMTP_CLOSE_TIMEOUT_MS: '0', MAIL_DOMAINS: DOMAIN, SMTP_INBOX_CACHE_MS: '0',
    // Only the sender-check test needs the check and its worker; threads cost seconds to start on a busy machine.
    MAIL_AUTH: 'off', SMTP_PARSE_WORKERS: '0', MAIL_AUTH_DNS_FIXTURE: join(database.dir, 'dns.json'),
    SMTP_PROXY_PROTOCOL: 'on', SMTP_TRUSTED_PROXIES: `${BALANCER}, 192.0.2.0/24`, ...env,
  }, { ownConnection: true })
  servers.push(server)
  return server.port
}

const refusals = (reason: RefusalReason) => refusalCount(servers[0]!.ingest, reason)

/** A session through the balancer for the client the header names (the header is written as HAProxy does: at once). */
function throughBalancer(port: number, header: string | Buffer) {
  const s = rawSession(port, BALANCER)
  s.socket.write(header)
  return s
}

let inboxes = 0
async function createInbox(): Promise<string> {
  const localPart = `proxied${++inboxes}`
  await db.insertInto('inbox').values({ address: `${localPart}@${DOMAIN}`, local_part: localPart, domain: DOMAIN, created_at: Date.now(), expires_at: Date.now() + 3_600_000 }).execute()
  return `${localPart}@${DOMAIN}`
}

/**
 * A direct client is greeted as soon as it connects: a forged PROXY header races that greeting (it lost under load
 * in a CI run), so the 421 may follow a 220. Nothing else may come first.
 */
async function refusalAfterGreeting(session: ReturnType<typeof rawSession>): Promise<string> {
  const first = await session.reply()
  return first.startsWith('220 ') ? session.reply() : first
}

describe('SMTP behind a balancer that sends the PROXY protocol', { timeout: 30_000 }, () => {
  it('gives each client behind one balancer its own SMTP_MAX_CLIENTS_PER_IP, over v1 and v2 (IPv6 by /64)', async () => {
    const port = await startServer({ SMTP_MAX_CLIENTS_PER_IP: '1' })
    const first = throughBalancer(port, proxyV1('198.51.100.1'))
    const second = throughBalancer(port, proxyV1('198.51.100.2'))
    expect(await first.reply()).toMatch(/^220 /)
    // Without the header both would be the balancer's address, and this one would be refused.
    expect(await second.reply()).toMatch(/^220 /)
    const again = throughBalancer(port, proxyV1('198.51.100.1'))
    expect(await again.reply()).toMatch(/^421 4\.7\.0 Too many connections from your network/)
    await again.closed
    const six = throughBalancer(port, proxyV2({ remoteAddress: '2001:db8:0:1::5', remotePort: 1, localAddress: '2001:db8::2', localPort: 25 }))
    expect(await six.reply()).toMatch(/^220 /)
    const sameNetwork = throughBalancer(port, proxyV2({ remoteAddress: '2001:db8:0:1::6', remotePort: 2, localAddress: '2001:db8::2', localPort: 25 }))
    expect(await sameNetwork.reply()).toMatch(/^421 4\.7\.0 /)
    expect(await refusals('too_many_connections')).toBe(2)
    // The balancer's own health check (v2 LOCAL) is a session of its own address, and is served.
    const check = throughBalancer(port, proxyV2({ command: 'LOCAL' }))
    expect(await check.reply()).toMatch(/^220 /)
    for (const s of [first, second, six, check]) s.socket.destroy()
  })

  it('checks the sender against the client the header names, and the session goes on after the header', async () => {
    const port = await startServer({ MAIL_AUTH: 'on' })
    const to = await createInbox()
    const send = async (client: string, subject: string) => {
      const s = throughBalancer(port, proxyV1(client))
      expect(await s.reply()).toMatch(/^220 /)
      expect(await s.command('EHLO mail.proxied.example')).toMatch(/^250 /)
      expect(await s.command('MAIL FROM:<bounce@proxied.example>')).toMatch(/^250 /)
      expect(await s.command(`RCPT TO:<${to}>`)).toMatch(/^250 /)
      expect(await s.command('DATA')).toMatch(/^354 /)
      expect(await s.command(`${plainMail('Proxied <bounce@proxied.example>', to, subject)}.`)).toMatch(/^250 /)
      s.socket.end('QUIT\r\n')
    }
    await send('198.51.100.7', 'allowed')
    await send('198.51.100.8', 'not allowed')
    const spf = async (subject: string) => {
      const row = await db.selectFrom('message')
        .innerJoin('message_auth', 'message_auth.message_content_id', 'message.message_content_id')
        .select(['message_auth.status', 'message_auth.details', 'message_auth.authentication_results'])
        .where('message.subject', '=', subject)
        .executeTakeFirst()
      if (!row || row.status === 'checking') return null
      return { spf: (JSON.parse(row.details!) as { spf: { result: string } }).spf.result, results: row.authentication_results }
    }
    await expect.poll(() => spf('allowed'), { timeout: 15_000 }).toMatchObject({ spf: 'pass' })
    await expect.poll(() => spf('not allowed'), { timeout: 15_000 }).toMatchObject({ spf: 'fail' })
    // Pass for .7 and fail for .8 show which client was judged; the stored header names neither (no client IP kept).
    expect((await spf('allowed'))!.results).toContain('designates client-address-withheld as permitted sender')
    expect((await spf('allowed'))!.results).not.toContain('198.51.100.7')
  })

  it('answers a PROXY header from an address not in SMTP_TRUSTED_PROXIES with 421 4.7.0 and closes; it may still speak SMTP', async () => {
    const port = await startServer()
    const forged = rawSession(port, STRANGER)
    forged.socket.write(proxyV1('198.51.100.7'))
    expect(await refusalAfterGreeting(forged)).toBe(`421 4.7.0 ${DOMAIN} PROXY protocol header not accepted: you are not a trusted proxy, closing connection`)
    await forged.closed
    expect(forged.lines.filter((line) => !line.startsWith('220 '))).toHaveLength(1)
    const forgedV2 = rawSession(port, STRANGER)
    forgedV2.socket.write(proxyV2({ remoteAddress: '198.51.100.7', remotePort: 1, localAddress: '10.0.0.2', localPort: 25 }))
    expect(await refusalAfterGreeting(forgedV2)).toMatch(/^421 4\.7\.0 .* not a trusted proxy/)
    await forgedV2.closed
    expect(await refusals('proxy_untrusted')).toBe(2)
    const direct = rawSession(port, STRANGER)
    expect(await direct.reply()).toMatch(/^220 /)
    expect(await direct.command('EHLO client.example')).toMatch(/^250 /)
    direct.socket.destroy()
  })

  it('answers a malformed or over-long header from the balancer with 421 4.5.2 at once, and closes', async () => {
    const port = await startServer({ SMTP_PROXY_HEADER_TIMEOUT_MS: '60000' })
    for (const header of ['PROXY TCP4 198.51.100.300 10.0.0.2 1 25\r\n', `PROXY TCP4 ${'1'.repeat(200)}`, 'EHLO client.example\r\n']) {
      const s = throughBalancer(port, header)
      expect(await s.reply(), header).toBe(`421 4.5.2 ${DOMAIN} Invalid PROXY protocol header, closing connection`)
      await s.closed
    }
    expect(await refusals('proxy_header')).toBe(3)
  })

  it('answers 421 4.4.2 and closes when the header is not complete in time, however the bytes trickle, or never comes', async () => {
    const port = await startServer({ SMTP_PROXY_HEADER_TIMEOUT_MS: '400' })
    const slow = throughBalancer(port, 'PROXY TCP4 198.51.100.1 10.0.0.2 4')
    // A byte every 50 ms keeps any idle timeout from firing; a complete header would still need many more.
    const trickle = setInterval(() => slow.socket.write('0'), 50)
    try {
      expect(await slow.reply()).toBe(`421 4.4.2 ${DOMAIN} No PROXY protocol header in time, closing connection`)
      await slow.closed
    } finally {
      clearInterval(trickle)
    }
    // A balancer sending no header at all: its client waits for our greeting, which only a header brings.
    const silent = rawSession(port, BALANCER)
    expect(await silent.reply()).toMatch(/^421 4\.4\.2 /)
    await silent.closed
    expect(await refusals('proxy_header')).toBe(2)
  })

  it('closes a connection still waiting for its header when the server stops', async () => {
    const port = await startServer({ SMTP_PROXY_HEADER_TIMEOUT_MS: '60000' })
    const waiting = throughBalancer(port, 'PROXY TCP4 198.51.100.1')
    await expect.poll(() => waiting.socket.bytesWritten).toBeGreaterThan(0)
    await servers.pop()!.close()
    await waiting.closed
    expect(waiting.lines).toEqual([])
  })
})

describe('SMTP_PROXY_PROTOCOL off (the default)', () => {
  it('reads no header: one is answered as any early talker is, and names no address', async () => {
    const port = await startServer({ SMTP_PROXY_PROTOCOL: '', SMTP_TRUSTED_PROXIES: '', SMTP_MAX_CLIENTS_PER_IP: '1' })
    const s = throughBalancer(port, proxyV1('198.51.100.1'))
    expect(await s.reply()).toMatch(/^421 .*You talk too soon/)
    await s.closed
    const direct = rawSession(port, BALANCER)
    expect(await direct.reply()).toMatch(/^220 /)
    // The balancer's address is the client: a second session from it is over SMTP_MAX_CLIENTS_PER_IP.
    const second = throughBalancer(port, '')
    expect(await second.reply()).toMatch(/^421 4\.7\.0 Too many connections/)
    direct.socket.destroy()
  })
})
