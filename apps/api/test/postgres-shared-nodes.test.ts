import { afterEach, describe, expect, it } from 'vitest'
import type { App } from '../src/app.js'
import { twoNodes } from './two-nodes.js'
import { expectRateLimited } from './rate-limit-answer.js'
import { waitFor } from './postgres-server.js'

/**
 * Two API nodes on one PostgreSQL (project `postgres` only): two apps sharing nothing but the database and the
 * service's secret, as two machines would run them. What must be one for the service holds across them.
 */
const apps: App[] = []
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close()
})

const IP = '198.51.100.40'

describe('two API nodes on one PostgreSQL share', () => {
  it('the 5-active-addresses limit, also for requests racing each other on both nodes', async () => {
    const [a, b] = await twoNodes('shared', apps)
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => (i % 2 ? a : b).inject({ method: 'POST', url: '/api/email/generate', remoteAddress: IP })),
    )
    expect(answers.filter((r) => r.statusCode === 200)).toHaveLength(5)
    for (const r of answers.filter((r) => r.statusCode !== 200)) {
      expect(r.statusCode).toBe(429)
      expect(r.json()).toEqual({
        error: 'You already have 5 active addresses. Release one you no longer need, or wait until one expires.',
        code: 'too_many_active_addresses',
      })
    }
    // Releasing one on node A frees a place for node B.
    const address = (answers.find((r) => r.statusCode === 200)!.json() as { email: string }).email
    expect((await a.inject({ method: 'DELETE', url: `/api/email/${encodeURIComponent(address)}`, remoteAddress: IP })).statusCode).toBe(200)
    expect((await b.inject({ method: 'POST', url: '/api/email/generate', remoteAddress: IP })).statusCode).toBe(200)
    // Another client has its own five.
    expect((await b.inject({ method: 'POST', url: '/api/email/generate', remoteAddress: '198.51.100.41' })).statusCode).toBe(200)
  })

  it('the rate-limit counters of a route: 10 contact messages an hour from a client, whichever node takes them', async () => {
    const [a, b] = await twoNodes('shared', apps)
    const valid = { name: 'Ann', email: 'ann@example.com', subject: 'Hello', message: 'A question about the service.' }
    const answers = []
    for (let i = 0; i < 12; i++) answers.push(await (i % 2 ? a : b).inject({ method: 'POST', url: '/api/contact', payload: valid, remoteAddress: IP }))
    expect(answers.slice(0, 10).map((r) => r.statusCode)).toEqual(Array(10).fill(201))
    for (const r of answers.slice(10)) expectRateLimited(r, 3600)
    expect((await a.inject({ method: 'POST', url: '/api/contact', payload: valid, remoteAddress: '198.51.100.41' })).statusCode).toBe(201)
  })

  it('the sweep: one node runs it, and the other once that one is gone', async () => {
    const [a, b] = await twoNodes('shared', apps)
    const leading = () => [a, b].filter((app) => app.sharedState.leadership.isLeading())
    await waitFor(() => leading().length === 1, 'one node leads')
    const [leader] = leading()
    const other = leader === a ? b : a
    expect(other.sharedState.leadership.isLeading()).toBe(false)
    await leader!.close()
    apps.splice(apps.indexOf(leader!), 1)
    await waitFor(() => other.sharedState.leadership.isLeading(), 'the other node takes over')
  })
})
