/** The api under poll: SQLite with 1–3 processes, or nodes on one PostgreSQL server, each with the filled inbox. */
import { createDb, createPostgresDb } from '@tempbox/db'
import { createTestDatabase, type PostgresServer } from '@tempbox/db/testing/postgres'
import { startApiStack, type ApiStack } from '../api-stack.js'
import { fillInbox } from './fill-inbox.js'
import { DOMAIN, REPO_ROOT } from './settings.js'
import { captureResponse, ENCODINGS, measure } from './wrk-runs.js'

/** One response per encoding exactly as the api sent it, replayed by the bare reference server. */
export const captured = new Map<string, { headers: string[]; body: string }>()

/** Polls the filled inbox on every node (several fresh connections each, so every process has its listing cached), then measures. */
async function measureStacks(server: string, stacks: ApiStack[], address: string, extraPids: number[] = []): Promise<void> {
  const urls = stacks.map((stack) => `${stack.apiUrl}/api/email/${address}?refresh=true`)
  for (const url of urls) {
    for (let i = 0; i < 8 * 3; i++) {
      const check = (await (await fetch(url, { headers: { connection: 'close' } })).json()) as { messages: unknown[] }
      if (check.messages.length !== 50) throw new Error(`expected 50 messages, got ${check.messages.length}`)
    }
  }
  for (const encoding of ENCODINGS) {
    if (!captured.has(encoding.label)) captured.set(encoding.label, await captureResponse(urls[0]!, encoding.headers))
    await measure(server, true, [...stacks.map((stack) => stack.api.child.pid!), ...extraPids], urls, encoding)
  }
}

export async function measureSqlite(processes: number): Promise<void> {
  const stack = await startApiStack(REPO_ROOT, { withIngest: false, domain: DOMAIN, env: { API_PROCESSES: String(processes) } })
  try {
    const { db } = createDb({ path: stack.dbPath })
    const address = await fillInbox(stack.apiUrl, db).finally(() => db.destroy())
    await measureStacks(`SQLite, api ${processes} process${processes > 1 ? 'es' : ''}`, [stack], address)
  } finally {
    await stack.stop()
  }
}

/** `nodes` api nodes (one process each) of the checkout at `root` on a database of their own on the PostgreSQL server. */
export async function measurePostgres(server: PostgresServer, nodes: number, root = REPO_ROOT, name = 'PostgreSQL'): Promise<void> {
  const url = await createTestDatabase(server.url, 'inbox_poll')
  const stacks: ApiStack[] = []
  try {
    // One after the other: the first migrates the new database.
    for (let i = 0; i < nodes; i++) {
      stacks.push(await startApiStack(root, { withIngest: false, domain: DOMAIN, env: { API_PROCESSES: '1', DATABASE_URL: url } }))
    }
    const db = createPostgresDb({ url })
    const address = await fillInbox(stacks[0]!.apiUrl, db).finally(() => db.destroy())
    await measureStacks(`${name}, ${nodes} api node${nodes > 1 ? 's' : ''}`, stacks, address, [server.pid])
  } finally {
    await Promise.all(stacks.map((stack) => stack.stop()))
  }
}
