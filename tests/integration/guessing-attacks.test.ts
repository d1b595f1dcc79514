import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startStack, type Stack } from '../support/stack.js'

/**
 * The guessing attacks of issue 13 against the real api: one client trying 300 inbox names, 300 short-link codes, and
 * a link's clicks without its secret. Clients are told apart by X-Forwarded-For from a trusted proxy (loopback).
 */
let stack: Stack
beforeAll(async () => {
  stack = await startStack({ env: { TRUST_PROXY: '127.0.0.1' } })
})
afterAll(async () => {
  await stack?.stop()
})

const ATTACKER = '198.51.100.10'
const OTHER = '198.51.100.11'
const get = (path: string, client: string) => fetch(stack.apiUrl + path, { headers: { 'x-forwarded-for': client }, redirect: 'manual' })
const post = (path: string, body: unknown, client: string) =>
  fetch(stack.apiUrl + path, { method: 'POST', headers: { 'x-forwarded-for': client, 'content-type': 'application/json' }, body: JSON.stringify(body) })

/** Sends the 300 guesses one after another, as a script would; the statuses in order and the first refusal. */
async function guess300(path: (i: number) => string): Promise<{ statuses: number[]; refused: Response }> {
  const statuses: number[] = []
  let refused: Response | undefined
  for (let i = 0; i < 300; i++) {
    const res = await get(path(i), ATTACKER)
    statuses.push(res.status)
    if (res.status === 429) refused ??= res
    else await res.arrayBuffer()
  }
  return { statuses, refused: refused! }
}

describe('guessing against the running service', () => {
  it('answers 300 inbox-name guesses from one client with 30 × 404, then 429 with Retry-After; another client is served', async () => {
    const victim = ((await (await post('/api/email/generate', {}, OTHER)).json()) as { email: string }).email
    const { statuses, refused } = await guess300((i) => `/api/email/guess-${i}@${stack.mailDomain}`)
    expect(statuses).toEqual([...Array<number>(30).fill(404), ...Array<number>(270).fill(429)])
    const retryAfter = Number(refused.headers.get('retry-after'))
    expect(retryAfter).toBeGreaterThan(0)
    expect(retryAfter).toBeLessThanOrEqual(60)
    expect(await refused.json()).toEqual({
      error: `Too many addresses that do not exist were asked for from your network. Please try again in ${retryAfter} seconds.`,
      code: 'rate_limited',
    })
    // A right guess among the refusals would still tell: it is refused too.
    expect((await get(`/api/email/${encodeURIComponent(victim)}`, ATTACKER)).status).toBe(429)
    expect((await get(`/api/email/guess-0@${stack.mailDomain}`, OTHER)).status).toBe(404)
    expect((await get(`/api/email/${encodeURIComponent(victim)}`, OTHER)).status).toBe(200)
  })

  it('answers 300 short-link code guesses with 30 × 404, then 429; another client still follows its link', async () => {
    const link = (await (await post('/api/links', { url: 'https://example.com/landing' }, OTHER)).json()) as { code: string }
    const { statuses, refused } = await guess300((i) => `/s/Gs${String(i).padStart(6, '0')}`)
    expect(statuses).toEqual([...Array<number>(30).fill(404), ...Array<number>(270).fill(429)])
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(await refused.json()).toMatchObject({ code: 'rate_limited', error: expect.stringContaining('short links that do not exist') })
    expect((await get(`/s/${link.code}`, ATTACKER)).status).toBe(429)
    const followed = await get(`/s/${link.code}`, OTHER)
    expect(followed.status).toBe(302)
    expect(followed.headers.get('location')).toBe('https://example.com/landing')
  })

  it('shows a link\'s target and clicks only with its secret: a code alone, or a wrong secret, shows nothing', async () => {
    const link = (await (await post('/api/links', { url: 'https://example.com/private-target' }, OTHER)).json()) as { code: string; secret: string }
    expect(link.code).toMatch(/^[A-Za-z0-9]{8}$/)
    const wrong = link.secret.slice(0, -1) + (link.secret.endsWith('A') ? 'B' : 'A')
    const guessed = await post('/api/links/lookup', { links: [{ code: link.code, secret: wrong }, { code: link.code, secret: '' }] }, ATTACKER)
    expect(guessed.status).toBe(200)
    const body = await guessed.text()
    expect(JSON.parse(body)).toEqual({ links: [] })
    expect(body).not.toContain('private-target')
    // The old listing by code alone is gone.
    const listing = await get(`/api/links?codes=${link.code}`, ATTACKER)
    expect(listing.status).toBe(404)
    expect(await listing.text()).not.toContain('private-target')
    // Its creator, holding the secret, sees it.
    const own = await post('/api/links/lookup', { links: [{ code: link.code, secret: link.secret }] }, OTHER)
    expect(await own.json()).toMatchObject({ links: [{ code: link.code, original: 'https://example.com/private-target' }] })
  })
})
