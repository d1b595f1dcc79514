import { sql } from 'kysely'
import { afterEach, describe, expect, it } from 'vitest'
import type { App } from '../src/app.js'
import { twoNodes } from './two-nodes.js'
import { deliver, generate } from './email-fixtures.js'
import { bearer, signUp } from './auth-helpers.js'

/**
 * Two API nodes on one PostgreSQL (project `postgres` only), each keeping address rows and first pages between
 * requests: what one node changes reaches the other's caches through the database's notifications, and nothing else
 * links them. A subject rewritten behind every cache's back (nothing notifies that column) shows whether a node
 * answered from its cache: the cached page keeps the old subject, a page read afresh has the new one.
 */
const apps: App[] = []
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close()
})

interface Page {
  messages: { id: string; subject: string; read: boolean }[]
  total: number
  unread: number
}

const list = async (app: App, address: string) => (await app.inject({ method: 'GET', url: `/api/email/${address}` })).json() as Page
const shown = (page: Page) => page.messages.map((m) => `${m.subject}${m.read ? ' (read)' : ''}`)
const mark = (app: App, address: string, id: number) => app.inject({ method: 'PATCH', url: `/api/email/${address}/messages/${id}`, payload: { read: true } })
const renameBehindCaches = (app: App, id: number, subject: string) => app.db.updateTable('message').set({ subject }).where('id', '=', id).execute()
/**
 * Listens to `address`'s inbox on `app`'s watcher (before the mail comes, so no read of it passes unseen): `heard(id)`
 * resolves once the watcher has read message `id`, heard of through the database, and so dropped the pages it changes.
 * A page cached before that read would be dropped after it, and a rename would show though the cache worked (as on a
 * loaded machine, where the notification came after the first poll).
 */
async function watchInbox(app: App, address: string): Promise<{ heard: (id: number) => Promise<void> }> {
  const { id: inboxId } = await app.db.selectFrom('inbox').select('id').where('address', '=', address).executeTakeFirstOrThrow()
  const read = new Set<number>()
  const waiting = new Map<number, () => void>()
  // Ends with the app, closed after each test.
  app.mailWatcher.subscribe(Number(inboxId), (event) => {
    if (event.type !== 'message') return
    const id = Number(event.row.id)
    read.add(id)
    waiting.get(id)?.()
  })
  return { heard: (id) => (read.has(id) ? Promise.resolve() : new Promise<void>((resolve) => waiting.set(id, resolve))) }
}

const DAY = 86_400_000

describe('caches of API nodes on one PostgreSQL', () => {
  it('a message marked read on one node is read in the listing the other node had cached', async () => {
    const [a, b] = await twoNodes('caches', apps)
    const address = await generate(a)
    const watch = await watchInbox(b, address)
    const code = await deliver(a, address, { subject: 'Your code' })
    const welcome = await deliver(a, address, { subject: 'Welcome' })
    await Promise.all([watch.heard(code), watch.heard(welcome)])
    expect(shown(await list(b, address))).toEqual(['Welcome', 'Your code'])
    // B answers its next poll from its cache: the rename is not in it.
    await renameBehindCaches(a, welcome, 'Welcome (renamed)')
    const cached = await list(b, address)
    expect(cached).toMatchObject({ total: 2, unread: 2 })
    expect(shown(cached)).toEqual(['Welcome', 'Your code'])

    expect((await mark(a, address, code)).json()).toEqual({ id: String(code), read: true, unread: 1 })
    await expect.poll(async () => shown(await list(b, address))).toEqual(['Welcome (renamed)', 'Your code (read)'])
    expect((await list(b, address)).unread).toBe(1)
  })

  it('an address saved and kept longer on one node is kept on the other, which had its row cached', async () => {
    const [a, b] = await twoNodes('caches', apps)
    const address = await generate(a)
    const { token } = await signUp(a)
    // B has read the address's row (anonymous, one day) and keeps it.
    expect((await b.inject({ method: 'GET', url: `/api/email/${address}` })).statusCode).toBe(200)

    const saved = await a.inject({ method: 'POST', url: '/api/auth/addresses', payload: { email: address }, headers: bearer(token) })
    expect(saved.statusCode).toBe(200)
    const createdAt = Date.parse((saved.json() as { createdAt: string }).createdAt)
    // Only the account the address is saved to may keep it longer: B must know it is saved now.
    await expect
      .poll(async () => (await b.inject({ method: 'PUT', url: `/api/email/${address}/expiry`, payload: { days: 3 }, headers: bearer(token) })).json())
      .toEqual({ email: address, expiresAt: new Date(createdAt + 3 * DAY).toISOString(), burn: null })
  })

  it('a node whose listening connection drops still shows the read state and inbox updates committed meanwhile', async () => {
    const [a, b] = await twoNodes('caches', apps)
    const address = await generate(a)
    const { token } = await signUp(a)
    const watch = await watchInbox(b, address)
    const code = await deliver(a, address, { subject: 'Your code' })
    await watch.heard(code)
    expect(shown(await list(b, address))).toEqual(['Your code'])
    await renameBehindCaches(a, code, 'Your code (renamed)')
    expect(shown(await list(b, address))).toEqual(['Your code'])

    // Every LISTENing session of this database is cut (B's among them), and in the same transaction the message is
    // marked read and the address saved to an account: committed before B listens again, B never hears of it and must
    // drop its caches on reconnecting; committed after, B hears it. Either way B must end up right.
    const userId = (await a.db.selectFrom('user').select('id').executeTakeFirstOrThrow()).id
    const cut = await a.db.transaction().execute(async (trx) => {
      const { rows } = await sql<{ n: number }>`
        select count(*) filter (where pg_terminate_backend(pid, 5000))::int as n from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid() and query ilike 'LISTEN%'`.execute(trx)
      await trx.updateTable('message').set({ read_at: Date.now() }).where('id', '=', code).execute()
      await trx.updateTable('inbox').set({ user_id: userId }).where('address', '=', address).execute()
      return rows[0]!.n
    })
    expect(cut).toBe(2)

    await expect.poll(async () => shown(await list(b, address))).toEqual(['Your code (renamed) (read)'])
    const kept = await b.inject({ method: 'PUT', url: `/api/email/${address}/expiry`, payload: { days: 2 }, headers: bearer(token) })
    expect(kept.statusCode).toBe(200)
  })
})
