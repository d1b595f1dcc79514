import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { migrateToLatest, openIssuedAddresses, openStorage, recordIssuedAddress, type Storage } from '@tempbox/db'
import { ENGINES, migratedPostgresDatabase } from '@tempbox/db/testing'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { loadConfig } from '../src/config.js'
import { createSmtpServer, type IngestServer } from '../src/smtp-server.js'
import { rawSession } from '../../../tests/support/smtp-session.js'

const DOMAIN = 'tempbox.test'
const HOUR = 3_600_000
const LIMIT = 10
const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  vi.restoreAllMocks()
})

/** `nodes` ingest servers on one new database, with a clock the test moves; on SQLite one node (one host). */
async function start(engine: (typeof ENGINES)[number], nodes = 1) {
  const dir = mkdtempSync(join(tmpdir(), 'guess-limit-'))
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
  const url = engine === 'postgres' ? await migratedPostgresDatabase('guess') : undefined
  const path = join(dir, 'tempbox.sqlite')
  const storage = openStorage({ path, url })
  cleanups.push(() => storage.close())
  await migrateToLatest(storage.db)
  const clock = { now: Date.now() }
  const env = { SMTP_PORT: '0', DATABASE_PATH: path, ...(url ? { DATABASE_URL: url } : {}), MAIL_DOMAINS: DOMAIN, SMTP_GUESS_LIMIT_PER_MINUTE: String(LIMIT), SMTP_PARSE_WORKERS: '0' }
  const ports: number[] = []
  for (let i = 0; i < nodes; i++) {
    const nodeStorage: Storage = i === 0 ? storage : openStorage({ path, url })
    if (i > 0) cleanups.push(() => nodeStorage.close())
    const ingest: IngestServer = createSmtpServer({ storage: nodeStorage, config: loadConfig(env), clock: () => clock.now })
    ports.push(await ingest.listen())
    cleanups.push(() => ingest.close())
  }
  const issued = openIssuedAddresses(storage.db)
  /** An address as the api issues it: an inbox and its entry in the issued list; `expiresAt` in the past for an old one. */
  const issue = async (localPart: string, expiresAt = clock.now + HOUR) => {
    const address = `${localPart}@${DOMAIN}`
    await storage.db.insertInto('inbox').values({ address, local_part: localPart, domain: DOMAIN, created_at: clock.now - HOUR, expires_at: expiresAt }).execute()
    await recordIssuedAddress(storage.db, { hash: await issued.hash(address), issuedAt: clock.now - HOUR, blockUntil: clock.now + 365 * 24 * HOUR })
    return address
  }
  return { ports, clock, issue, storage }
}

/** A session from `ip` (a loopback address of its own) that names each recipient in turn; the replies' codes. */
async function rcpts(port: number, ip: string, recipients: string[]): Promise<string[]> {
  const session = rawSession(port, ip)
  await session.reply()
  await session.command('EHLO sender.test')
  expect(await session.command('MAIL FROM:<news@sender.test>')).toMatch(/^250/)
  const replies: string[] = []
  for (const to of recipients) replies.push(await session.command(`RCPT TO:<${to}>`))
  session.socket.end('QUIT\r\n')
  await session.closed
  return replies
}

const codes = (replies: string[]) => replies.map((r) => r.slice(0, 9))
const guesses = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}-${i}-never@${DOMAIN}`)

describe.each(ENGINES)('the SMTP guess limit on %s', (engine) => {
  it('stops a guesser across parallel sessions within the budget, a live address too, until the window has passed', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const { ports, clock, issue } = await start(engine, engine === 'postgres' ? 2 : 1)
    const live = await issue('live-one')
    // 5 sessions of 4 never-issued names (under SMTP_MAX_UNKNOWN_RECIPIENTS each), spread over the nodes.
    const replies = (await Promise.all(Array.from({ length: 5 }, (_, s) => rcpts(ports[s % ports.length]!, '127.0.0.21', guesses(`s${s}`, 4))))).flat()
    expect(codes(replies).filter((c) => c === '550 5.1.1')).toHaveLength(LIMIT)
    expect(codes(replies).filter((c) => c === '450 4.7.1')).toHaveLength(20 - LIMIT)
    // Nothing can be told apart now: the live address answers the same.
    for (const port of ports) expect(codes(await rcpts(port, '127.0.0.21', [live, `x@${DOMAIN}`]))).toEqual(['450 4.7.1', '450 4.7.1'])
    // Another client is not held back.
    expect(codes(await rcpts(ports[0]!, '127.0.0.22', [live]))).toEqual(['250 Accep'])
    const lines = warn.mock.calls.map((call) => String(call[0])).filter((line) => line.includes('never-issued'))
    expect(lines).toHaveLength(1)
    expect(lines[0]).not.toContain('127.0.0.21')
    clock.now += 60_000
    expect(codes(await rcpts(ports[ports.length - 1]!, '127.0.0.21', [live, `y-never@${DOMAIN}`]))).toEqual(['250 Accep', '550 5.1.1'])
  })

  it('never slows a sender mailing live, expired and released addresses, however many', async () => {
    const { ports, clock, issue, storage } = await start(engine)
    const live = [await issue('alive-a'), await issue('alive-b')]
    const old: string[] = []
    for (let i = 0; i < 3 * LIMIT; i++) old.push(await issue(`expired-${i}`, clock.now - 1))
    // Half of them released (the row gone, as after DELETE or the sweep), half expired and not swept yet.
    await storage.db.deleteFrom('inbox').where('address', 'in', old.filter((_, i) => i % 2 === 0)).execute()
    const replies: string[] = []
    // More old addresses per session than SMTP_MAX_UNKNOWN_RECIPIENTS (5) allows unknown ones, and more in all than the budget.
    for (let s = 0; s < 3; s++) replies.push(...(await rcpts(ports[0]!, '127.0.0.23', [...old.slice(s * LIMIT, (s + 1) * LIMIT), ...live])))
    expect(codes(replies).filter((c) => c === '550 5.1.1')).toHaveLength(3 * LIMIT)
    expect(codes(replies).filter((c) => c.startsWith('250'))).toHaveLength(6)
    expect(replies.filter((r) => /^4/.test(r))).toEqual([])
  })
})
