import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { createTestDatabase, startPostgres, type PostgresServer } from '@tempbox/db/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REPO_ROOT, startApiNode, startStack, type ApiNode, type Stack } from '../support/stack.js'

/**
 * `pnpm owner:promote <email>` as an operator runs it, while the api keeps running: on the SQLite file the services
 * share and on PostgreSQL. What counts is what the api answers afterwards to the account's existing token.
 */
interface Outcome {
  code: number
  stdout: string
  stderr: string
}

function promote(email: string, database: Record<string, string>): Promise<Outcome> {
  const env: NodeJS.ProcessEnv = { ...process.env, ...database }
  if (!database.DATABASE_URL) delete env.DATABASE_URL
  return new Promise((resolve) => {
    execFile('pnpm', ['--silent', 'owner:promote', email], { cwd: REPO_ROOT, env }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr })
    })
  })
}

async function call<T = Record<string, unknown>>(apiUrl: string, method: string, path: string, body?: unknown, token?: string) {
  const res = await fetch(`${apiUrl}${path}`, {
    method,
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  })
  return { status: res.status, body: (await res.json()) as T }
}

/** Registers an account and checks it starts as a plain user, without owner rights. */
async function registerUser(apiUrl: string, email: string): Promise<string> {
  const { body } = await call<{ token: string }>(apiUrl, 'POST', '/api/auth/register', { email, password: 'operator-pass' })
  expect((await call(apiUrl, 'GET', '/api/analytics/realtime', undefined, body.token)).status).toBe(403)
  return body.token
}

/** The same token, signed in before the promotion, now has an owner's rights; setup is closed. */
async function expectOwner(apiUrl: string, token: string): Promise<void> {
  expect((await call<{ user: { role: string } }>(apiUrl, 'GET', '/api/auth/me', undefined, token)).body.user.role).toBe('owner')
  expect((await call(apiUrl, 'GET', '/api/analytics/realtime', undefined, token)).status).toBe(200)
  const roles = await call(apiUrl, 'POST', '/api/auth/role', { email: 'helper@example.com', role: 'admin' }, token)
  expect(roles.status).toBe(200)
  expect((await call(apiUrl, 'GET', '/api/auth/setup')).body).toEqual({ open: false })
}

describe('pnpm owner:promote on the SQLite file, with the api running', () => {
  let stack: Stack
  beforeAll(async () => {
    stack = await startStack()
  })
  afterAll(async () => {
    await stack?.stop()
  })

  it('makes the account an owner at once, and the change is in the file after the api restarts', async () => {
    const token = await registerUser(stack.apiUrl, 'operator@example.com')
    await registerUser(stack.apiUrl, 'helper@example.com')

    const done = await promote(' Operator@Example.com ', { DATABASE_PATH: stack.dbPath })
    expect(done).toMatchObject({ code: 0, stdout: expect.stringContaining('operator@example.com is now an owner.') as string })
    await expectOwner(stack.apiUrl, token)

    await stack.api.stop()
    await stack.restartApi()
    await expectOwner(stack.apiUrl, token)
    expect((await promote('operator@example.com', { DATABASE_PATH: stack.dbPath })).stdout).toContain('operator@example.com is already an owner; nothing was changed.')
  })

  it('says so and exits non-zero for an email with no account, or a database file that is not there', async () => {
    const missing = await promote('nobody@example.com', { DATABASE_PATH: stack.dbPath })
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain(`There is no account with the email nobody@example.com in ${stack.dbPath}; nothing was changed.`)

    const wrongPath = `${stack.dataDir}/typo.sqlite`
    const noFile = await promote('operator@example.com', { DATABASE_PATH: wrongPath })
    expect(noFile.code).toBe(2)
    expect(noFile.stderr).toContain(`There is no Tempbox database at ${wrongPath}`)
  })
})

describe('pnpm owner:promote on PostgreSQL, with an api node running', () => {
  let postgres: PostgresServer
  let url: string
  let node: ApiNode
  beforeAll(async () => {
    postgres = await startPostgres()
    url = await createTestDatabase(postgres.url, 'promote')
    node = await startApiNode(url, { jwtSecret: randomBytes(32).toString('hex') })
  }, 300_000)
  afterAll(async () => {
    await node?.stop()
    await postgres?.stop()
  })

  it('makes the account an owner through DATABASE_URL, and refuses an unknown email', async () => {
    const token = await registerUser(node.apiUrl, 'operator@example.com')
    await registerUser(node.apiUrl, 'helper@example.com')

    const missing = await promote('nobody@example.com', { DATABASE_URL: url })
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain('There is no account with the email nobody@example.com in the PostgreSQL database at DATABASE_URL')
    expect((await call(node.apiUrl, 'GET', '/api/auth/setup')).body).toMatchObject({ open: true })

    const done = await promote('operator@example.com', { DATABASE_URL: url })
    expect(done).toMatchObject({ code: 0, stdout: expect.stringContaining('operator@example.com is now an owner.') as string })
    await expectOwner(node.apiUrl, token)
  })
})
