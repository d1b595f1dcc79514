/**
 * Failed logins must cost the same whether or not the email has an account (no account enumeration by timing):
 * median time of a wrong password for a real account vs. an unknown email, interleaved. `pnpm bench login`.
 */
import { createDb, migrateToLatest } from '@tempbox/db'
import { AuthService } from '../apps/api/src/services/accounts/auth-service.ts'
import { SessionService } from '../apps/api/src/services/accounts/session-service.ts'
import { LoginFailureCounter } from '../apps/api/src/service-state/in-process-login-failures.ts'

const { db } = createDb({ path: ':memory:' })
await migrateToLatest(db)
const sessions = new SessionService(db, () => 'token', { accessTokenTtlMs: 900_000, refreshTokenTtlMs: 86_400_000, maxSessionsPerAccount: 10 })
// No lockout: every wrong password is checked in full, as an account's first few are. Production's default hash cost.
const auth = new AuthService(db, sessions, new LoginFailureCounter(Infinity), (email) => email, { memoryKib: 7_168, passes: 5 })
await auth.register({ email: 'real@example.com', password: 'correct-horse' })
await auth.warm()

const timeOf = async (email: string) => {
  const t = performance.now()
  await auth.login({ email, password: 'wrong-password' }).catch(() => undefined)
  return performance.now() - t
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const known: number[] = []
const unknown: number[] = []
const rounds = 40
for (let i = 0; i < rounds; i++) {
  known.push(await timeOf('real@example.com'))
  unknown.push(await timeOf(`nobody${i}@example.com`))
}
const k = median(known)
const u = median(unknown)
console.log(`failed login median: existing email ${k.toFixed(1)} ms · unknown email ${u.toFixed(1)} ms · difference ${(Math.abs(k - u) / k * 100).toFixed(1)}% (${rounds} each, argon2id 19 MiB, t=2)`)
await db.destroy()
