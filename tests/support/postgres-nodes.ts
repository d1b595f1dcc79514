import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { apiLogLevel, cheapHashing } from './app-env.js'
import type { RunningProcess } from './child-process.js'
import { LISTENING, startListening } from './listen-ports.js'
import { portAccepts } from './wait-for.js'

/** Nodes start while others run on the same machine and database: the limit only bounds a hang. */
const NODE_STARTUP_MS = 180_000

/** mail-ingest alone on a database it shares with other nodes (DATABASE_URL: PostgreSQL), as the api cannot run there yet. */
export interface IngestNode {
  smtpPort: number
  mailDomain: string
  ingest: RunningProcess
  /** Starts it again after it was stopped (same ports, same database). */
  restartIngest: () => Promise<RunningProcess>
  stop: () => Promise<void>
}

/** Starts the real mail-ingest, its listeners on port 0, storing to the PostgreSQL database at `databaseUrl`. */
export async function startIngestNode(databaseUrl: string, options: { mailDomain?: string; env?: Record<string, string> } = {}): Promise<IngestNode> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tempbox-ingest-'))
  const mailDomain = options.mailDomain ?? 'tempbox.test'
  let ports = { SMTP_PORT: '0', INGEST_METRICS_PORT: '0' }
  const env: Record<string, string> = {
    DATABASE_URL: databaseUrl,
    // Never written: set so that no default path points at the repository's own data folder.
    DATABASE_PATH: join(dataDir, 'unused.sqlite'),
    MAIL_DOMAINS: mailDomain,
    SMTP_HOST: '127.0.0.1',
  }
  const start = async () => {
    const started = await startListening(
      'apps/mail-ingest/src/main.ts', { ...env, ...ports, ...options.env }, {}, { smtp: LISTENING.smtp, metrics: LISTENING.metrics },
      ({ smtp }) => portAccepts(smtp), NODE_STARTUP_MS, 'mail-ingest to start',
    )
    ports = { SMTP_PORT: String(started.ports.smtp), INGEST_METRICS_PORT: String(started.ports.metrics) }
    return started.proc
  }
  const ingest = await start().catch((error: unknown) => {
    rmSync(dataDir, { recursive: true, force: true })
    throw error
  })
  const node: IngestNode = {
    smtpPort: Number(ports.SMTP_PORT),
    mailDomain,
    ingest,
    restartIngest: async () => {
      node.ingest = await start()
      return node.ingest
    },
    stop: async () => {
      await node.ingest.stop()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
  return node
}

export interface ApiNode {
  apiUrl: string
  api: RunningProcess
  stop: () => Promise<void>
}

/**
 * Starts the real api (one process, its listeners on port 0) over the PostgreSQL database at `databaseUrl`, as one
 * node of several: nodes of one service must share `JWT_SECRET` (tokens, and the keys its shared limits are hashed under).
 */
export async function startApiNode(databaseUrl: string, options: { mailDomain?: string; jwtSecret: string; env?: Record<string, string> }): Promise<ApiNode> {
  const logLevel = apiLogLevel(options.env)
  const dataDir = mkdtempSync(join(tmpdir(), 'tempbox-api-'))
  const env: Record<string, string> = {
    DATABASE_URL: databaseUrl,
    // Never written: set so that no default path points at the repository's own data folder.
    DATABASE_PATH: join(dataDir, 'unused.sqlite'),
    DATA_DIR: dataDir,
    JWT_SECRET: options.jwtSecret,
    MAIL_DOMAINS: options.mailDomain ?? 'tempbox.test',
    HOST: '127.0.0.1',
    PORT: '0',
    METRICS_PORT: '0',
    WEB_DIST_DIR: '',
    ...cheapHashing(options.env),
    ...options.env,
    ...logLevel,
  }
  const { proc: api, ports } = await startListening(
    'apps/api/src/server.ts', env, {}, { http: LISTENING.http },
    async ({ http }) => (await fetch(`http://127.0.0.1:${http}/api/health/live`)).ok, NODE_STARTUP_MS, 'api node to start',
  ).catch((error: unknown) => {
    rmSync(dataDir, { recursive: true, force: true })
    throw error
  })
  return {
    apiUrl: `http://127.0.0.1:${ports.http}`,
    api,
    stop: async () => {
      await api.stop()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
