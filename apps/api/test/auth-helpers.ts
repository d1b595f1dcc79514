import type { App } from '../src/app.js'
import { setUserRole, findUserByEmail } from '../src/repositories/user-repository.js'

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` })

let counter = 0
/** Registers a fresh account; `role` other than user is set directly in the database. */
export async function signUp(app: App, role: 'user' | 'admin' | 'owner' = 'user', email = `person${++counter}@example.com`) {
  const res = await app.inject({ method: 'POST', url: '/api/auth/register', payload: { email, password: 'secret-pass' } })
  if (res.statusCode !== 200) throw new Error(`register failed: ${res.body}`)
  const { token } = res.json() as { token: string }
  if (role !== 'user') {
    const row = await findUserByEmail(app.db, email)
    await setUserRole(app.db, row!.id, role)
  }
  return { email, token }
}
