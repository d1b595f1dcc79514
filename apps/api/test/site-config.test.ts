import { afterEach, describe, expect, it } from 'vitest'
import type { App } from '../src/app.js'
import { loadConfig } from '../src/config.js'
import { buildTestApp } from './helper.js'

let app: App | undefined
afterEach(async () => {
  await app?.close()
  app = undefined
})

describe('GET /api/config (the addresses the web app shows)', () => {
  it('defaults the support address to support@ the first mail domain, and the others to it', async () => {
    app = await buildTestApp({ MAIL_DOMAINS: 'mail.tempbox.test,other.test' })
    const res = await app.inject({ method: 'GET', url: '/api/config' })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ supportEmail: 'support@mail.tempbox.test', privacyEmail: 'support@mail.tempbox.test', legalEmail: 'support@mail.tempbox.test' })
    expect(res.headers['cache-control']).toContain('max-age')
  })

  it('serves SUPPORT_EMAIL, PRIVACY_EMAIL and LEGAL_EMAIL as configured', async () => {
    app = await buildTestApp({ SUPPORT_EMAIL: 'help@tempbox.test', PRIVACY_EMAIL: 'dpo@tempbox.test', LEGAL_EMAIL: 'legal@tempbox.test' })
    expect((await app.inject({ method: 'GET', url: '/api/config' })).json()).toEqual({
      supportEmail: 'help@tempbox.test',
      privacyEmail: 'dpo@tempbox.test',
      legalEmail: 'legal@tempbox.test',
    })
  })

  it('refuses to start with an address that is not a plain one, saying which setting is wrong', () => {
    for (const bad of ['Support <help@tempbox.test>', 'nobody', 'a@b', `${'x'.repeat(250)}@tempbox.test`]) {
      expect(() => loadConfig({ DATABASE_PATH: ':memory:', SUPPORT_EMAIL: bad }), bad).toThrow(/SUPPORT_EMAIL must be a plain email address/)
    }
  })
})
