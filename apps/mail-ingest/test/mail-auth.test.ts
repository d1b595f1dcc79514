import { describe, expect, it, vi } from 'vitest'
import { checkMessage, UNKNOWN, type AuthVerdict } from '../src/mail-auth/check.js'
import { DEFAULT_MAX_HEADER_BYTES } from '../src/mail-auth/config.js'
import { createCachingResolver, fixtureResolver } from '../src/mail-auth/dns.js'
import { createAuthQueue, type AuthJob } from '../src/mail-auth/queue.js'
import { authSourceOf } from '../src/mail-auth/job.js'
import { headerBlockEnd } from '../src/mail-auth/header-block.js'
import { memoizeUnsigned } from '../src/mail-auth/unsigned-memo.js'
import { parseMessage } from '../src/parse-message.js'
import { toStoredSource } from '@tempbox/db'
import { dmarcReject, plainMail, signingDomain, signMail } from '../../../tests/support/dkim.js'

const github = signingDomain('github.com')
const attacker = signingDomain('attacker.example')
const zone = {
  ...github.zone,
  ...dmarcReject('github.com'),
  ...attacker.zone,
  ...dmarcReject('paypal.com'),
  'github.com': { TXT: [['v=spf1 ip4:192.0.2.10 -all']] },
}
const options = { resolver: fixtureResolver(zone), mta: 'tempbox.test' }
const envelope = { ip: '192.0.2.99', helo: 'mail.example', mailFrom: 'bounce@github.com' }
const check = async (raw: string, resolver = options.resolver) => checkMessage(Buffer.from(raw), envelope, { ...options, resolver })

describe('who really sent it', () => {
  it('keeps no client address in the stored Authentication-Results (SPF comment, address-literal HELO)', async () => {
    for (const ip of ['192.0.2.10', '::ffff:192.0.2.10', '2001:db8::7']) {
      const helo = ip.includes(':') && !ip.startsWith('::ffff:') ? `[IPv6:${ip}]` : '[192.0.2.10]'
      const verdict = await checkMessage(Buffer.from(plainMail('GitHub <noreply@github.com>', 'a@tempbox.test', 'Hi')), { ip, helo, mailFrom: 'bounce@github.com' }, options)
      expect(verdict.details?.spf?.result).toBe(ip === '2001:db8::7' ? 'fail' : 'pass')
      expect(verdict.authenticationResults).toContain('spf=')
      expect(verdict.authenticationResults).not.toContain('192.0.2.10')
      expect(verdict.authenticationResults).not.toContain('2001:db8::7')
      expect(verdict.authenticationResults).toContain('client-address-withheld')
    }
  })

  it('verifies a message signed by the domain in its From (DKIM and DMARC pass, aligned)', async () => {
    const verdict = await check(await signMail(plainMail('GitHub <noreply@github.com>', 'a@tempbox.test', 'Your code'), github))
    expect(verdict.status).toBe('pass')
    expect(verdict.details?.fromDomain).toBe('github.com')
    expect(verdict.details?.dkim).toEqual([{ result: 'pass', domain: 'github.com', selector: 'test', aligned: true }])
    expect(verdict.details?.dmarc).toMatchObject({ result: 'pass', domain: 'github.com' })
    // The connecting address is not in github.com's SPF record: DKIM alone carries the verdict.
    expect(verdict.details?.spf).toEqual({ result: 'fail', domain: 'github.com' })
    expect(verdict.authenticationResults).toContain('dkim=pass header.i=@github.com')
    expect(verdict.authenticationResults).toContain('dmarc=pass')
    expect(verdict.details?.arc).toBeNull()
  })

  it('verifies a signature made while the clock passes a second (the tests sign with one timestamp)', async () => {
    // Unless given one, mailauth's signer reads the clock for t= twice, once for what it signs and once for the header
    // it writes, an RSA signature apart: across a half second they differed and the mail failed (CI, 0.6 % at rest).
    let now = Date.now()
    const clock = vi.spyOn(Date, 'now').mockImplementation(() => (now += 1000))
    let signed: string
    try {
      signed = await signMail(plainMail('GitHub <noreply@github.com>', 'a@tempbox.test', 'Your code'), github)
    } finally {
      clock.mockRestore()
    }
    expect((await check(signed)).details?.dkim).toEqual([{ result: 'pass', domain: 'github.com', selector: 'test', aligned: true }])
  })

  it('fails a message that claims a DMARC domain it is not from (signed by another domain: misaligned From)', async () => {
    const verdict = await check(await signMail(plainMail('PayPal <service@paypal.com>', 'a@tempbox.test', 'Account locked'), attacker))
    expect(verdict.status).toBe('fail')
    expect(verdict.details?.fromDomain).toBe('paypal.com')
    expect(verdict.details?.dkim).toEqual([{ result: 'pass', domain: 'attacker.example', selector: 'test', aligned: false }])
    expect(verdict.details?.dmarc).toMatchObject({ result: 'fail', domain: 'paypal.com', policy: 'reject' })
  })

  it('fails a signature whose message was changed after signing', async () => {
    const signed = await signMail(plainMail('GitHub <noreply@github.com>', 'a@tempbox.test', 'Your code', 'Code 123456'), github)
    const verdict = await check(signed.replace('Code 123456', 'Code 999999'))
    expect(verdict.status).toBe('fail')
    // mailauth reports a body that no longer matches its hash as `neutral` (RFC 6376 allows either): not a pass.
    expect(verdict.details?.dkim[0]?.result).toBe('neutral')
  })

  it('says nothing is proven for an unsigned mail from a domain without DMARC', async () => {
    const verdict = await check(plainMail('Someone <someone@no-policy.example>', 'a@tempbox.test', 'Hello'))
    expect(verdict.status).toBe('none')
    expect(verdict.details?.dkim).toEqual([])
    expect(verdict.details?.dmarc).toMatchObject({ result: 'none' })
  })

  it('says nothing is proven when the signer is another domain and the From domain has no DMARC record', async () => {
    const verdict = await check(await signMail(plainMail('Shop <shop@no-policy.example>', 'a@tempbox.test', 'Order'), attacker))
    expect(verdict.status).toBe('none')
    expect(verdict.details?.dkim[0]).toMatchObject({ result: 'pass', aligned: false })
  })

  it('answers unknown when DNS fails rather than calling the mail bad', async () => {
    const broken = fixtureResolver({ 'github.com': 'SERVFAIL', 'test._domainkey.github.com': 'SERVFAIL', '_dmarc.github.com': 'SERVFAIL' })
    const verdict = await check(await signMail(plainMail('GitHub <noreply@github.com>', 'a@tempbox.test', 'Your code'), github), broken)
    expect(verdict.status).toBe('unknown')
    expect(verdict.details?.dkim[0]?.result).toBe('temperror')
  })

  it('does not check a header block over the limit (unknown, nothing asked of DNS), and checks one under it', async () => {
    const asked: string[] = []
    const counting: typeof options.resolver = async (name, type) => {
      asked.push(name)
      return options.resolver(name, type)
    }
    const signed = await signMail(plainMail('GitHub <noreply@github.com>', 'a@tempbox.test', 'Your code'), github)
    const padded = `X-Padding: ${'a'.repeat(DEFAULT_MAX_HEADER_BYTES)}\r\n${signed}`
    expect(await checkMessage(Buffer.from(padded), envelope, { ...options, resolver: counting })).toEqual(UNKNOWN)
    expect(asked).toEqual([])
    // The same mail under a limit set higher is checked as any other (the padding is not signed, so DKIM still passes).
    const verdict = await checkMessage(Buffer.from(padded), envelope, { ...options, resolver: counting, maxHeaderBytes: 2 * DEFAULT_MAX_HEADER_BYTES })
    expect(verdict.status).toBe('pass')
    expect(asked.length).toBeGreaterThan(0)
  })
})

describe('what the check reads of a stored message', () => {
  /** The message as the store worker holds it after the parse worker: its stored source and parsed text. */
  const stored = async (raw: string) => {
    const bytes = Buffer.from(raw)
    const parsed = await parseMessage(bytes)
    return { source: toStoredSource(bytes, parsed.text, parsed.plainBodyStart), parsed }
  }
  const body = 'Your code is 123456.\r\n'.repeat(200)

  it('reads only the header block of an unsigned mail, and gives the same verdict as for the whole mail', async () => {
    // DMARC (reject) and SPF records for the From domain: both paths run, and both fail.
    for (const raw of [plainMail('GitHub <noreply@github.com>', 'a@tempbox.test', 'Unsigned', body), plainMail('Someone <someone@no-policy.example>', 'a@tempbox.test', 'Hi', body)]) {
      const { bytes } = authSourceOf(await stored(raw))
      expect(bytes.toString()).toBe(raw.slice(0, raw.indexOf('\r\n\r\n') + 4))
      expect(await check(bytes.toString())).toEqual(await check(raw))
    }
    expect((await check(plainMail('GitHub <noreply@github.com>', 'a@tempbox.test', 'Unsigned', body))).status).toBe('fail')
  })

  it('reads the whole mail, rebuilt as received, when a DKIM signature hashes its body', async () => {
    const signed = await signMail(plainMail('GitHub <noreply@github.com>', 'a@tempbox.test', 'Your code', body), github)
    const message = await stored(signed)
    // The plain-text body is stored once, as the text: the source is rebuilt from the header block and the text.
    expect(message.source.bodyIsText).toBe(true)
    const { bytes } = authSourceOf(message)
    expect(bytes.toString()).toBe(signed)
    expect((await check(bytes.toString())).status).toBe('pass')
  })

  it('reads the whole mail when an ARC header is present, in any letter case', async () => {
    const raw = `arc-seal: i=1; a=rsa-sha256; cv=none; d=example.org; s=x; b=AAAA\r\n${plainMail('a <a@example.org>', 'b@tempbox.test', 'Forwarded', body)}`
    expect(authSourceOf(await stored(raw)).bytes.toString()).toBe(raw)
  })

  it('ends the header block where mailauth does: at the first empty line, LF or CRLF', () => {
    expect(headerBlockEnd(Buffer.from('A: 1\r\nB: 2\r\n\r\nbody\r\n\r\n'))).toBe(14)
    expect(headerBlockEnd(Buffer.from('A: 1\n\nB: 2\r\n\r\nbody'))).toBe(6)
    expect(headerBlockEnd(Buffer.from('A: 1\r\nB: 2'))).toBe(-1)
  })
})

describe('the DNS cache', () => {
  it('keeps at most its cap of answers, dropping the least recently used, and asks once for names asked together', async () => {
    const asked: string[] = []
    const resolve = createCachingResolver({
      timeoutMs: 100,
      maxEntries: 2,
      ttlMs: 60_000,
      lookup: async (name) => {
        asked.push(name)
        return [[`answer for ${name}`]]
      },
    })
    await Promise.all([resolve('a.example', 'TXT'), resolve('a.example', 'TXT')])
    await resolve('b.example', 'TXT')
    await resolve('a.example', 'TXT')
    await resolve('c.example', 'TXT')
    expect(resolve.size()).toBe(2)
    await resolve('a.example', 'TXT')
    await resolve('b.example', 'TXT')
    expect(asked).toEqual(['a.example', 'b.example', 'c.example', 'b.example'])
  })

  it('remembers that a name does not exist, but not that DNS failed', async () => {
    let calls = 0
    const resolve = createCachingResolver({
      timeoutMs: 100,
      maxEntries: 10,
      ttlMs: 60_000,
      lookup: async (name) => {
        calls++
        throw Object.assign(new Error('x'), { code: name.startsWith('missing') ? 'ENOTFOUND' : 'ETIMEOUT' })
      },
    })
    for (let i = 0; i < 2; i++) {
      await expect(resolve('missing.example', 'TXT')).rejects.toMatchObject({ code: 'ENOTFOUND' })
      await expect(resolve('slow.example', 'TXT')).rejects.toMatchObject({ code: 'ETIMEOUT' })
    }
    expect(calls).toBe(3)
  })
})

describe('the check queue', () => {
  const job = (contentId: number, bytes = 10): AuthJob => ({ contentId, raw: new Uint8Array(bytes), envelope })

  it('answers unknown at once for messages beyond its bounds, and runs no more checks at a time than allowed', async () => {
    const verdicts = new Map<number, AuthVerdict>()
    const started: number[] = []
    const finish: (() => void)[] = []
    const queue = createAuthQueue({
      check: (j) => {
        started.push(j.contentId)
        return new Promise((resolve) => finish.push(() => resolve({ status: 'pass', details: null, authenticationResults: null })))
      },
      concurrency: 2,
      maxQueued: 2,
      maxQueuedBytes: 25,
      timeoutMs: 60_000,
      onVerdict: (id, v) => verdicts.set(id, v),
    })
    for (let id = 1; id <= 5; id++) queue.push(job(id))
    // 1 and 2 run, 3 and 4 wait, 5 finds the queue full.
    expect(started).toEqual([1, 2])
    expect(verdicts.get(5)).toEqual(UNKNOWN)
    queue.push(job(6, 20))
    expect(verdicts.get(6)).toEqual(UNKNOWN)
    finish.shift()!()
    await new Promise((r) => setImmediate(r))
    expect(verdicts.get(1)?.status).toBe('pass')
    expect(started).toEqual([1, 2, 3])
    queue.abandon()
    expect([2, 3, 4].map((id) => verdicts.get(id)?.status)).toEqual(['unknown', 'unknown', 'unknown'])
  })

  it('answers unknown for a check that runs past its time', async () => {
    const verdicts = new Map<number, AuthVerdict>()
    const queue = createAuthQueue({
      check: () => new Promise(() => {}),
      concurrency: 1, maxQueued: 10, maxQueuedBytes: 1000, timeoutMs: 10,
      onVerdict: (id, v) => verdicts.set(id, v),
    })
    queue.push(job(1))
    await expect.poll(() => verdicts.get(1)).toEqual(UNKNOWN)
  })
})

describe('verdicts of unsigned mail reused for the same sender', () => {
  const head = (from: string, subject: string, extra = '') => Buffer.from(`${extra}From: ${from}\r\nTo: a@tempbox.test\r\nSubject: ${subject}\r\n\r\n`)
  const counting = (verdict: AuthVerdict = { status: 'none', details: null, authenticationResults: 'tempbox.test; spf=none' }) => {
    const seen: string[] = []
    const check = async (raw: Buffer) => {
      seen.push(raw.toString())
      return verdict
    }
    return { seen, check }
  }

  it('checks a burst from one envelope and From once, and gives every message that verdict', async () => {
    const { seen, check } = counting()
    const memo = memoizeUnsigned(check, { maxEntries: 10, ttlMs: 60_000 })
    const verdicts = await Promise.all(['one', 'two', 'three'].map((s) => memo(head('Someone <a@example.com>', s), envelope)))
    expect(seen).toHaveLength(1)
    expect(verdicts.every((v) => v.authenticationResults === 'tempbox.test; spf=none')).toBe(true)
  })

  it('checks again for another From field, another envelope, or once the time is up', async () => {
    let clock = 0
    const { seen, check } = counting()
    const memo = memoizeUnsigned(check, { maxEntries: 10, ttlMs: 1_000, now: () => clock })
    await memo(head('Someone <a@example.com>', 'x'), envelope)
    await memo(head('Someone <a@example.org>', 'x'), envelope)
    await memo(head('Someone <a@example.com>', 'x'), { ...envelope, ip: '192.0.2.100' })
    await memo(head('Someone <a@example.com>', 'x'), { ...envelope, mailFrom: 'other@github.com' })
    await memo(head('Someone <a@example.com>', 'x'), { ...envelope, helo: 'other.example' })
    // A second From field, or a folded one, is another field.
    await memo(head('Someone <a@example.com>', 'x', 'From: Other <b@example.net>\r\n'), envelope)
    await memo(Buffer.from('From: Someone\r\n <a@example.com>\r\nSubject: x\r\n\r\n'), envelope)
    expect(seen).toHaveLength(7)
    await memo(head('Someone <a@example.com>', 'y'), envelope)
    expect(seen).toHaveLength(7)
    clock = 1_000
    await memo(head('Someone <a@example.com>', 'y'), envelope)
    expect(seen).toHaveLength(8)
  })

  it('never reuses the verdict of signed mail, of mail without a header block, or an unknown one', async () => {
    const { seen, check } = counting()
    const memo = memoizeUnsigned(check, { maxEntries: 10, ttlMs: 60_000 })
    const signed = head('GitHub <noreply@github.com>', 'x', 'DKIM-Signature: v=1; d=github.com\r\n')
    const arc = head('GitHub <noreply@github.com>', 'x', 'ARC-Seal: i=1\r\n')
    for (const raw of [signed, signed, arc, arc, Buffer.from('From: a@example.com\r\nno end'), Buffer.from('From: a@example.com\r\nno end')]) await memo(raw, envelope)
    expect(seen).toHaveLength(6)

    const failing = counting(UNKNOWN)
    const memoUnknown = memoizeUnsigned(failing.check, { maxEntries: 10, ttlMs: 60_000 })
    await memoUnknown(head('Someone <a@example.com>', 'x'), envelope)
    await memoUnknown(head('Someone <a@example.com>', 'x'), envelope)
    expect(failing.seen).toHaveLength(2)
  })

  it('keeps at most maxEntries senders, and none with 0', async () => {
    const { seen, check } = counting()
    const memo = memoizeUnsigned(check, { maxEntries: 2, ttlMs: 60_000 })
    for (const from of ['a', 'b', 'c', 'a']) await memo(head(`${from}@example.com`, 'x'), envelope)
    // 'a' was dropped when 'c' came in.
    expect(seen).toHaveLength(4)
    const off = counting()
    const none = memoizeUnsigned(off.check, { maxEntries: 0, ttlMs: 60_000 })
    for (let i = 0; i < 3; i++) await none(head('a@example.com', 'x'), envelope)
    expect(off.seen).toHaveLength(3)
  })

  it('gives the same verdict mailauth gives each message of a burst', async () => {
    const memo = memoizeUnsigned((raw, env) => checkMessage(raw, env, options), { maxEntries: 10, ttlMs: 60_000 })
    for (const subject of ['first', 'second']) {
      // DMARC reject and an SPF record for github.com: the reused verdict is a fail, as mailauth's own.
      const raw = Buffer.from(plainMail('GitHub <noreply@github.com>', 'a@tempbox.test', subject))
      const bytes = raw.subarray(0, headerBlockEnd(raw))
      const verdict = await memo(bytes, envelope)
      expect(verdict.status).toBe('fail')
      expect(verdict).toEqual(await checkMessage(bytes, envelope, options))
    }
  })
})
