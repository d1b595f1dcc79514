import { afterEach, describe, expect, it } from 'vitest'
import type { App } from '../src/app.js'
import { loadConfig } from '../src/config.js'
import { buildTestApp } from './helper.js'

let app: App | undefined
afterEach(() => app?.close())

async function storedHash(env: Record<string, string>, email: string): Promise<string> {
  app = await buildTestApp(env)
  const registered = await app.inject({ method: 'POST', url: '/api/auth/register', payload: { email, password: 'secret-pass' } })
  expect(registered.statusCode).toBe(200)
  const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'secret-pass' } })
  expect(login.statusCode).toBe(200)
  const row = await app.db.selectFrom('user').select('password_hash').where('email', '=', email).executeTakeFirstOrThrow()
  return row.password_hash
}

describe('password hashing cost', () => {
  it("hashes with argon2id at OWASP's 7 MiB, 5 passes profile when nothing is configured", async () => {
    const hash = await storedHash({ PASSWORD_HASH_MEMORY_KIB: '', PASSWORD_HASH_PASSES: '' }, 'default@example.com')
    expect(hash.startsWith('$argon2id$v=19$m=7168,t=5,p=1$')).toBe(true)
  })

  it('hashes new passwords at the configured cost, still argon2id, and signs in with them', async () => {
    const hash = await storedHash({ PASSWORD_HASH_MEMORY_KIB: '1024', PASSWORD_HASH_PASSES: '3' }, 'cheap@example.com')
    expect(hash.startsWith('$argon2id$v=19$m=1024,t=3,p=1$')).toBe(true)
  })

  it("refuses to start in production below every OWASP profile, and says which it wanted", () => {
    const production = { APP_ENV: 'production', JWT_SECRET: 'x'.repeat(32), DATABASE_PATH: ':memory:', WEB_DIST_DIR: '' }
    expect(() => loadConfig({ ...production, PASSWORD_HASH_MEMORY_KIB: '64', PASSWORD_HASH_PASSES: '1' })).toThrow(
      "PASSWORD_HASH_MEMORY_KIB=64 with PASSWORD_HASH_PASSES=1 is below OWASP's minimum for argon2id (47104 KiB × 1, 19456 KiB × 2, 12288 KiB × 3, 9216 KiB × 4, 7168 KiB × 5): refused with APP_ENV=production",
    )
    expect(() => loadConfig({ ...production, PASSWORD_HASH_MEMORY_KIB: '19455', PASSWORD_HASH_PASSES: '2' })).toThrow(/PASSWORD_HASH_MEMORY_KIB=19455 with PASSWORD_HASH_PASSES=2 is below/)
    expect(() => loadConfig({ ...production, PASSWORD_HASH_MEMORY_KIB: '7167' })).toThrow(/PASSWORD_HASH_MEMORY_KIB=7167 with PASSWORD_HASH_PASSES=5 is below/)
    // Another of OWASP's profiles: less memory, more passes.
    expect(loadConfig({ ...production, PASSWORD_HASH_MEMORY_KIB: '12288', PASSWORD_HASH_PASSES: '3' }).passwordHash).toEqual({ memoryKib: 12_288, passes: 3 })
  })

  it("allows a cheap cost outside production, down to argon2's floor", () => {
    const local = { DATABASE_PATH: ':memory:', WEB_DIST_DIR: '' }
    expect(loadConfig({ ...local, PASSWORD_HASH_MEMORY_KIB: '8', PASSWORD_HASH_PASSES: '1' }).passwordHash).toEqual({ memoryKib: 8, passes: 1 })
    expect(() => loadConfig({ ...local, PASSWORD_HASH_MEMORY_KIB: '7' })).toThrow('PASSWORD_HASH_MEMORY_KIB must be an integer ≥ 8 (got "7")')
    expect(() => loadConfig({ ...local, PASSWORD_HASH_PASSES: '0' })).toThrow('PASSWORD_HASH_PASSES must be an integer ≥ 1 (got "0")')
  })
})
