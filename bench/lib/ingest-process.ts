import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createDb, createPostgresDb, type Db } from '@tempbox/db'
import { freePort, spawnUntil } from './processes.js'
import { startCommand } from './start-command.js'

export interface IngestProcess {
  port: number
  pid: number
  dbPath: string
  /** A connection of the benchmark's own to the same file (for setup and checks). */
  db: Db
  /** The better-sqlite3 connection under `db`, for pragmas. */
  sqlite: ReturnType<typeof createDb>['sqlite']
  stop: () => Promise<void>
}

/**
 * Starts the real mail-ingest over a fresh SQLite file holding the inboxes `localParts`@`domain`, alone: without the
 * api, whose work would share the cores with what is measured. `BENCH_INGEST_ROOT` runs the mail-ingest of another
 * copy of the repository instead (another commit, for a before/after in one session); `ingestRoot` names one for this
 * process alone.
 */
export async function startIngest(
  repoRoot: string, domain: string, localParts: string[], env: Record<string, string> = {}, ingestRoot?: string, nodeArgs?: string,
): Promise<IngestProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tempbox-bench-'))
  const dbPath = join(dataDir, 'tempbox.sqlite')
  const { port, proc } = await spawnIngest(repoRoot, domain, { DATABASE_PATH: dbPath, ...env }, ingestRoot, nodeArgs)
  const { db, sqlite } = createDb({ path: dbPath })
  await addInboxes(db, domain, localParts)
  return {
    port,
    pid: proc.child.pid!,
    dbPath,
    db,
    sqlite,
    stop: async () => {
      await proc.stop()
      if (process.env.BENCH_DUMP) writeFileSync(process.env.BENCH_DUMP, proc.output())
      await db.destroy()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/** mail-ingest storing to the PostgreSQL database at `databaseUrl` (which it migrates), with the inboxes `localParts`@`domain`. */
export async function startIngestOnPostgres(
  repoRoot: string, domain: string, localParts: string[], databaseUrl: string, env: Record<string, string> = {}, ingestRoot?: string,
): Promise<Omit<IngestProcess, 'dbPath' | 'sqlite'>> {
  const { port, proc } = await spawnIngest(repoRoot, domain, { DATABASE_URL: databaseUrl, ...env }, ingestRoot)
  const db = createPostgresDb({ url: databaseUrl })
  await addInboxes(db, domain, localParts)
  return {
    port,
    pid: proc.child.pid!,
    db,
    stop: async () => {
      await proc.stop()
      if (process.env.BENCH_DUMP) writeFileSync(process.env.BENCH_DUMP, proc.output())
      await db.destroy()
    },
  }
}

async function addInboxes(db: Db, domain: string, localParts: string[]): Promise<void> {
  if (localParts.length === 0) return
  const now = Date.now()
  await db
    .insertInto('inbox')
    .values(localParts.map((local) => ({ address: `${local}@${domain}`, local_part: local, domain, created_at: now, expires_at: now + 86_400_000 })))
    .execute()
}

/** `nodeArgs`: node flags for this process (BENCH_NODE_ARGS unless given). */
async function spawnIngest(repoRoot: string, domain: string, env: Record<string, string>, ingestRoot?: string, nodeArgs = process.env.BENCH_NODE_ARGS ?? '') {
  const port = await freePort()
  const root = ingestRoot ?? process.env.BENCH_INGEST_ROOT ?? repoRoot
  // That copy's `pnpm start` flags and environment (but its sources, not dist/); the bench's flags after them win.
  const start = startCommand(root, 'mail-ingest')
  const flags = [...start.nodeArgs.filter((a) => !a.startsWith('--conditions')), ...nodeArgs.split(' ').filter(Boolean)]
  // Plain node with the tsx loader (not the tsx CLI) so the pid we sample is the server itself.
  const proc = await spawnUntil(process.execPath, [...flags, '--import', 'tsx', join(root, 'apps/mail-ingest/src/main.ts')], {
    cwd: join(repoRoot, 'bench'),
    env: {
      ...start.env,
      SMTP_HOST: '127.0.0.1', SMTP_PORT: String(port), INGEST_METRICS_PORT: '0', MAIL_DOMAINS: domain,
      // Every benchmark connection comes from 127.0.0.1: one client, as far as the per-IP session cap can tell.
      SMTP_MAX_CLIENTS_PER_IP: '1000',
      ...env,
    },
    readyText: '[smtp] listening',
    // A shared, busy machine can take most of a minute just to load the TypeScript of the workers.
    timeoutMs: 180_000,
  })
  return { port, proc }
}
