import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { migratedSqliteFile } from '@tempbox/db/testing'
import { apiLogLevel, cheapHashing } from './app-env.js'
import type { RunningProcess } from './child-process.js'
import { LISTENING, startListening } from './listen-ports.js'
import { REPO_ROOT } from './repo-root.js'
import { portAccepts } from './wait-for.js'

// What the test files import with the stack, from the modules that hold it.
export { APPS_FROM_SOURCE, COMPILED_CONDITION, compiledEntry, startProcess, untilReady, type RunningProcess } from './child-process.js'
export { LISTENING, reportedPort, startListening } from './listen-ports.js'
export { childProcesses, connectionOwner, isRunning, readProcess, type ProcessInfo } from './proc-fs.js'
export { startApiNode, startIngestNode, type ApiNode, type IngestNode } from './postgres-nodes.js'
export { REPO_ROOT } from './repo-root.js'
export { portAccepts, waitFor } from './wait-for.js'

/** How long a starting app may take on a busy shared machine: it only bounds a hang. */
const STARTUP_MS = 60_000

export interface StackOptions {
  env?: Record<string, string>
  /** The apps' `pnpm build` output run by node, as production does (true), or their sources through tsx (false); by default the former unless TEST_APPS_FROM_SOURCE=1. */
  compiled?: boolean
  /** Node options for both processes, e.g. `--import` of a test hook. */
  nodeArgs?: string[]
  /** Serve the built web app (needs `apps/web/dist`). */
  withWeb?: boolean
  mailDomains?: string
  /**
   * mail-ingest's parse and store threads, as production runs them (true), or parsing and writing on its SMTP thread
   * (SMTP_PARSE_WORKERS=0, the default here): starting those threads is most of ingest's start-up CPU, and only the
   * suites about ingest itself (crash, shutdown, the corpus, the compiled build) are about them.
   */
  parseWorkers?: boolean
  /**
   * An empty file for the api to migrate at its start, as on a first `pnpm start` (true), or a copy of one migrated
   * once per test process (the default): migrating is ~200 ms of every api start's CPU, and a file of its own, named by
   * `env.DATABASE_PATH` or on PostgreSQL, is never copied.
   */
  freshDatabase?: boolean
}

export interface Stack {
  apiUrl: string
  httpPort: number
  smtpPort: number
  /** `/metrics` of the api and of mail-ingest, each on a listener of its own. */
  metricsPort: number
  ingestMetricsPort: number
  dbPath: string
  dataDir: string
  mailDomain: string
  api: RunningProcess
  ingest: RunningProcess
  /** Starts mail-ingest again after it was stopped (same ports, same file). */
  restartIngest: () => Promise<RunningProcess>
  /** Starts the api again after it was stopped (same ports, same file, same environment). */
  restartApi: () => Promise<RunningProcess>
  stop: () => Promise<void>
}

/**
 * Starts the real api and mail-ingest over a fresh temporary SQLite file, each listener on port 0: the ports are the
 * ones the apps report having bound. A restart asks for the same ports again.
 */
export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const logLevel = apiLogLevel(options.env)
  const dataDir = mkdtempSync(join(tmpdir(), 'tempbox-test-'))
  const dbPath = join(dataDir, 'tempbox.sqlite')
  const mailDomains = options.mailDomains ?? 'tempbox.test'
  const env: Record<string, string> = {
    DATABASE_PATH: dbPath,
    DATA_DIR: dataDir,
    MAIL_DOMAINS: mailDomains,
    HOST: '127.0.0.1',
    SMTP_HOST: '127.0.0.1',
    WEB_DIST_DIR: options.withWeb ? join(REPO_ROOT, 'apps/web/dist') : '',
    ...(options.parseWorkers ? {} : { SMTP_PARSE_WORKERS: '0' }),
    ...cheapHashing(options.env),
  }
  if (!options.freshDatabase && options.env?.DATABASE_PATH === undefined && options.env?.DATABASE_URL === undefined) await migratedSqliteFile(dbPath)
  const run = { compiled: options.compiled, nodeArgs: options.nodeArgs }
  let apiPorts = { PORT: '0', METRICS_PORT: '0' }
  let ingestPorts = { SMTP_PORT: '0', INGEST_METRICS_PORT: '0' }
  // Liveness: readiness (/api/health) also wants mail-ingest, which starts next.
  const startApi = async () => {
    const { proc, ports } = await startListening(
      'apps/api/src/server.ts', { ...env, ...apiPorts, ...options.env, ...logLevel }, run, { http: LISTENING.http, metrics: LISTENING.metrics },
      async ({ http }) => (await fetch(`http://127.0.0.1:${http}/api/health/live`)).ok, STARTUP_MS, 'api to start',
    )
    apiPorts = { PORT: String(ports.http), METRICS_PORT: String(ports.metrics) }
    return { proc, ports }
  }
  const startIngest = async () => {
    const { proc, ports } = await startListening(
      'apps/mail-ingest/src/main.ts', { ...env, ...ingestPorts, ...options.env }, run, { smtp: LISTENING.smtp, metrics: LISTENING.metrics },
      ({ smtp }) => portAccepts(smtp), STARTUP_MS, 'mail-ingest to start',
    )
    ingestPorts = { SMTP_PORT: String(ports.smtp), INGEST_METRICS_PORT: String(ports.metrics) }
    return { proc, ports }
  }
  const removeData = () => rmSync(dataDir, { recursive: true, force: true })
  const api = await startApi().catch((error: unknown) => {
    removeData()
    throw error
  })
  const ingest = await startIngest().catch(async (error: unknown) => {
    await api.proc.stop()
    removeData()
    throw error
  })
  const stack: Stack = {
    apiUrl: `http://127.0.0.1:${api.ports.http}`,
    httpPort: api.ports.http,
    smtpPort: ingest.ports.smtp,
    metricsPort: api.ports.metrics,
    ingestMetricsPort: ingest.ports.metrics,
    dbPath,
    dataDir,
    mailDomain: mailDomains.split(',')[0]!.trim(),
    api: api.proc,
    ingest: ingest.proc,
    restartIngest: async () => {
      stack.ingest = (await startIngest()).proc
      return stack.ingest
    },
    restartApi: async () => {
      stack.api = (await startApi()).proc
      return stack.api
    },
    stop: async () => {
      await Promise.all([stack.api.stop(), stack.ingest.stop()])
      removeData()
    },
  }
  return stack
}
