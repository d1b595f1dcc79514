import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort, spawnUntil, type Child } from './processes.js'
import { startCommand } from './start-command.js'

export interface ApiStack {
  apiUrl: string
  smtpPort: number
  dbPath: string
  api: Child
  ingest: Child | null
  stop: () => Promise<void>
}

/** Starts the real api (and optionally mail-ingest) over a fresh SQLite file, as `pnpm start` does. */
export async function startApiStack(repoRoot: string, options: { withIngest: boolean; domain: string; env?: Record<string, string>; dist?: boolean }): Promise<ApiStack> {
  const dir = mkdtempSync(join(tmpdir(), 'tempbox-apibench-'))
  const dbPath = join(dir, 'tempbox.sqlite')
  const [httpPort, smtpPort] = [await freePort(), await freePort()]
  const env = {
    DATABASE_PATH: dbPath,
    DATA_DIR: dir,
    MAIL_DOMAINS: options.domain,
    HOST: '127.0.0.1',
    PORT: String(httpPort),
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: String(smtpPort),
    // Any free ports: a benchmark must not collide with a server already running on the defaults.
    METRICS_PORT: '0',
    INGEST_METRICS_PORT: '0',
    WEB_DIST_DIR: '',
    LOG_LEVEL: 'warn',
    APP_ENV: 'production',
    JWT_SECRET: 'bench-secret-bench-secret-bench-secret-0123456789',
    MAX_ACTIVE_ADDRESSES_PER_IP: '100000',
    MAX_GENERATED_PER_HOUR_PER_IP: '100000',
    // Benchmarks send thousands of messages to one inbox; the per-inbox quota (1,000 by default) would refuse them.
    MAX_MESSAGES_PER_INBOX: '1000000',
    ...options.env,
  }
  const apiUrl = `http://127.0.0.1:${httpPort}`
  // BENCH_API_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' profiles the api process (BENCH_INGEST_NODE_ARGS mail-ingest).
  const nodeArgs = process.env.BENCH_API_NODE_ARGS?.split(' ').filter(Boolean) ?? []
  const ingestNodeArgs = process.env.BENCH_INGEST_NODE_ARGS?.split(' ').filter(Boolean) ?? []
  const cleanUp = () => rmSync(dir, { recursive: true, force: true })
  // `dist`: the compiled JavaScript, as `pnpm start` runs it in production (tsx costs memory in every worker thread).
  // Compiled, each app starts with the flags and environment of its package's `start` script (young generations capped).
  // The bench's own flags come after the script's: V8 takes the last of a flag given twice.
  const launch = (app: 'api' | 'mail-ingest', file: string, extra: string[]) => {
    if (!options.dist) return { args: [...extra, '--import', 'tsx', join(repoRoot, `apps/${app}/src/${file}.ts`)], env: {} }
    const start = startCommand(repoRoot, app)
    return { args: [...start.nodeArgs, ...extra, join(repoRoot, `apps/${app}/dist/${file}.js`)], env: start.env }
  }
  const apiLaunch = launch('api', 'server', nodeArgs)
  const api = await spawnUntil(process.execPath, apiLaunch.args, {
    cwd: join(repoRoot, 'bench'),
    env: { ...apiLaunch.env, ...env, LOG_LEVEL: 'info' },
    // Fastify logs where it listens at info level; the routes that are benchmarked log at warn only. With several
    // processes the cluster's primary says when every worker listens.
    readyText: Number(options.env?.API_PROCESSES ?? 1) > 1 ? /workers serving/ : /listening/i,
    // A loaded shared machine can take over a minute to start tsx, migrate and build the app.
    timeoutMs: 180_000,
  }).catch((err: unknown) => {
    cleanUp()
    throw err
  })
  const ingestLaunch = options.withIngest ? launch('mail-ingest', 'main', ingestNodeArgs) : null
  const ingest = ingestLaunch
    ? await spawnUntil(process.execPath, ingestLaunch.args, {
        cwd: join(repoRoot, 'bench'),
        env: { ...ingestLaunch.env, ...env },
        readyText: '[smtp] listening',
        timeoutMs: 180_000,
      }).catch(async (err: unknown) => {
        await api.stop()
        cleanUp()
        throw err
      })
    : null
  return {
    apiUrl,
    smtpPort,
    dbPath,
    api,
    ingest,
    stop: async () => {
      await Promise.all([api.stop(), ingest?.stop()])
      cleanUp()
    },
  }
}

/** A fresh address from the running api. */
export async function generateAddress(apiUrl: string): Promise<string> {
  const res = await fetch(`${apiUrl}/api/email/generate`, { method: 'POST' })
  if (!res.ok) throw new Error(`generate: ${res.status} ${await res.text()}`)
  return ((await res.json()) as { email: string }).email
}
