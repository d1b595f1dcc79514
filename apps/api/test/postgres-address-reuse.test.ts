import { afterEach, describe, expect, it } from 'vitest'
import type { App } from '../src/app.js'
import { generate } from './email-fixtures.js'
import { twoNodes } from './two-nodes.js'

const apps: App[] = []
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close()
})

const post = (app: App, localPart: string, ip: string) => app.inject({ method: 'POST', url: '/api/email/generate', payload: { localPart }, remoteAddress: ip })

describe('the reuse block on PostgreSQL', () => {
  it('an address released on one node cannot be generated again on the other', async () => {
    const [a, b] = await twoNodes('reuse', apps)
    const address = await generate(a)
    expect((await a.inject({ method: 'DELETE', url: `/api/email/${address}`, remoteAddress: '203.0.113.7' })).statusCode).toBe(200)
    const res = await post(b, address.split('@')[0]!, '198.51.100.3')
    expect(res.statusCode).toBe(409)
    expect(res.json()).toMatchObject({ code: 'address_retired', error: expect.stringContaining('retired for good') })
  })

  it('one chosen name asked of both nodes at once is issued once', async () => {
    const [a, b] = await twoNodes('reuse-race', apps)
    const answers = await Promise.all([post(a, 'race-name-1', '198.51.100.4'), post(b, 'race-name-1', '198.51.100.5')])
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409])
    expect((await a.db.selectFrom('issued_address').select('hash').execute()).length).toBe(1)
  })
})
