import { Worker } from 'node:worker_threads'
import { afterEach, describe, expect, it } from 'vitest'
import { MAX_SEARCH_TERMS } from '@tempbox/types'
import type { App } from '../src/app.js'
import { buildTestApp } from './helper.js'
import { deliver, deliverMany, generate } from './email-fixtures.js'

let app: App
afterEach(async () => {
  await app?.close()
})

/** A large mail in German and French: every search below has to read all of its search copy (64 K characters). */
const bigText = (i: number) => `Grüße aus Köln, Nachricht ${i}. ` + 'Überweisung für das Café, Straße Nº 5 — élève, garçon, Ærø. '.repeat(2_000)
/**
 * Twelve terms (the most a search may have) with letters beyond ASCII, none found, each too short for the trigram
 * index: every copy is read, nothing ends a scan early (longer terms are looked up: search-index.test.ts in packages/db).
 */
const HEAVY_QUERY = ['ÄÖ', 'éè', 'ßẞ', 'Ωμ', 'Ñú', 'Łź', 'Øå', 'Čj', 'Ğü', 'Şi', 'Ÿé', 'Ђа'].join(' ')

/** Counts health answers (answered[0]) until answered[1] is set; an answer other than 200 stops it with answered[1] = 2. */
const HEALTH_CLIENT = `
  const { workerData } = require('node:worker_threads')
  const { url, answered } = workerData
  ;(async () => {
    while (Atomics.load(answered, 1) === 0) {
      const res = await fetch(url)
      await res.arrayBuffer()
      if (res.status !== 200) return Atomics.store(answered, 1, 2)
      Atomics.add(answered, 0, 1)
    }
  })()
`

async function fill(address: string, count: number): Promise<void> {
  await deliverMany(app, address, Array.from({ length: count }, (_, i) => ({ subject: `Rechnung Nr. ${i} — Überweisung`, fromName: 'Bücherei', text: bigText(i) })))
}

const search = (base: string, address: string, q: string, before?: string) =>
  fetch(`${base}/api/email/${encodeURIComponent(address)}?q=${encodeURIComponent(q)}${before ? `&before=${before}` : ''}`)

describe('a search of a full inbox with non-ASCII terms', () => {
  it('leaves the api answering other clients while three such searches run', async () => {
    app = await buildTestApp()
    const address = await generate(app)
    await fill(address, 300)
    const base = await app.listen({ host: '127.0.0.1', port: 0 })

    // Another client, on a thread of its own, asks for health one request after the other for as long as the searches run.
    const answered = new Int32Array(new SharedArrayBuffer(8))
    const client = new Worker(HEALTH_CLIENT, { eval: true, workerData: { url: `${base}/api/health/live`, answered } })
    while (Atomics.load(answered, 0) === 0) await new Promise((resolve) => setTimeout(resolve, 5))
    const atStart = Atomics.load(answered, 0)
    const searches = Array.from({ length: 3 }, () => search(base, address, HEAVY_QUERY))
    const responses = await Promise.all(searches)
    const answeredDuringSearches = Atomics.load(answered, 0) - atStart
    Atomics.store(answered, 1, 1)
    await new Promise((resolve) => client.once('exit', resolve))
    expect(Atomics.load(answered, 1)).toBe(1)
    for (const res of responses) {
      expect(res.status).toBe(200)
      // Nothing matches; on a busy machine the search may end at its budget (searchCut), which the next test covers.
      expect(await res.json()).toMatchObject({ messages: [], total: 0 })
    }
    // A search scanned in one statement (as before) let health in only between its few statements.
    expect(answeredDuringSearches).toBeGreaterThanOrEqual(10)
    // Filling 300 large mails and three full scans of them can take most of the default 30 s on a loaded machine.
  }, 90_000)

  it('stops at its time budget, says so, and goes on from there with nextBefore', async () => {
    app = await buildTestApp({ SEARCH_TIME_BUDGET_MS: '1' })
    const address = await generate(app)
    await fill(address, 40)
    const base = await app.listen({ host: '127.0.0.1', port: 0 })

    const first = (await (await search(base, address, 'überweisung köln')).json()) as { messages: unknown[]; total: number; nextBefore: string | null; searchCut: boolean }
    expect(first.searchCut).toBe(true)
    expect(first.total).toBeLessThan(40)
    expect(first.nextBefore).not.toBeNull()
    // Following nextBefore, every matching message is found once, each page no more than the budget allows.
    let seen = first.messages.length
    let before = first.nextBefore
    while (before !== null) {
      const page = (await (await search(base, address, 'ÜBERWEISUNG KÖLN', before)).json()) as { messages: unknown[]; nextBefore: string | null }
      seen += page.messages.length
      before = page.nextBefore
    }
    expect(seen).toBe(40)
  })

  it(`refuses more than ${MAX_SEARCH_TERMS} terms with 400 invalid_query`, async () => {
    app = await buildTestApp()
    const address = await generate(app)
    const base = await app.listen({ host: '127.0.0.1', port: 0 })
    const terms = Array.from({ length: MAX_SEARCH_TERMS + 1 }, (_, i) => `é${i}`).join(' ')
    const res = await search(base, address, terms)
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({ error: `A search can have at most ${MAX_SEARCH_TERMS} terms.`, code: 'invalid_query' })
  })

  it('limits searches per client per minute with 429 and Retry-After, leaving plain listings alone', async () => {
    app = await buildTestApp({ SEARCH_RATE_LIMIT_PER_MINUTE: '3' })
    const address = await generate(app)
    await deliver(app, address, { subject: 'Café', text: 'Grüße' })
    const base = await app.listen({ host: '127.0.0.1', port: 0 })
    for (let i = 0; i < 3; i++) expect((await search(base, address, 'café')).status).toBe(200)
    const refused = await search(base, address, 'café')
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(await refused.json()).toEqual({
      error: expect.stringMatching(/^Too many searches from your network \(at most 3 a minute\)\. Please try again in \d+ seconds\.$/),
      code: 'rate_limited',
    })
    const listing = await fetch(`${base}/api/email/${encodeURIComponent(address)}`)
    expect(listing.status).toBe(200)
  })
})
