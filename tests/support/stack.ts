import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs'
import { createConnection, createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

export const REPO_ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..')
/**
 * tsx's loader (a dependency of this tests package, not of the root). Apps run as `node --import <loader>`
 * rather than through the tsx CLI, so the child's pid is the server itself: a SIGKILL really kills it
 * instead of orphaning the server behind a killed wrapper.
 */
const TSX_LOADER = import.meta.resolve('tsx')
/** The package.json condition under which our workspace packages resolve to their `pnpm build` output (dist/). */
export const COMPILED_CONDITION = 'tempbox-compiled'
/**
 * Apps run from their `pnpm build` output unless this is set: through tsx a stack took 2–3× as long to start (the
 * workers of mail-ingest each transpile their TypeScript). vitest's global setup builds them first (see its file).
 */
export const APPS_FROM_SOURCE = process.env.TEST_APPS_FROM_SOURCE === '1'

/** Asks the OS for a free port on loopback. */
export async function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer()
    srv.once('error', fail)
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number }
      srv.close(() => ok(port))
    })
  })
}

/**
 * Runs `start` on `count` free ports, again on fresh ones (twice at most) when a child found one taken: freePort
 * releases a port before the child binds it, and another test file running at the same time may bind it first.
 */
async function onFreePorts<T>(count: number, start: (ports: number[]) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const ports: number[] = []
    for (let i = 0; i < count; i++) ports.push(await freePort())
    try {
      return await start(ports)
    } catch (error) {
      if (attempt === 3 || !(error as Error).message.includes('EADDRINUSE')) throw error
    }
  }
}

/** Whether `pid` or one of its descendants holds the socket listening on TCP `port` (Linux /proc), not another process. */
export function listensOn(pid: number, port: number): boolean {
  const hexPort = `:${port.toString(16).toUpperCase().padStart(4, '0')}`
  const inodes = new Set(
    ['/proc/net/tcp', '/proc/net/tcp6'].flatMap((table) =>
      readFileSync(table, 'utf8')
        .split('\n')
        .slice(1)
        .map((line) => line.trim().split(/\s+/))
        .filter(([, local, , state]) => local?.endsWith(hexPort) && state === '0A')
        .map((fields) => `socket:[${fields[9]}]`),
    ),
  )
  const holds = (p: number): boolean => {
    try {
      if (readdirSync(`/proc/${p}/fd`).some((fd) => {
        try {
          return inodes.has(readlinkSync(`/proc/${p}/fd/${fd}`))
        } catch {
          return false // closed while we looked
        }
      })) return true
    } catch {
      return false // the process is gone
    }
    return childProcesses(p).some((child) => holds(child.pid))
  }
  return inodes.size > 0 && holds(pid)
}

/** Polls `check` until it resolves true or the deadline passes. */
export async function waitFor(check: () => Promise<boolean> | boolean, timeoutMs = 20_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    try {
      if (await check()) return
    } catch {
      // not ready yet
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

export function portAccepts(port: number): Promise<boolean> {
  return new Promise((ok) => {
    const sock = createConnection({ host: '127.0.0.1', port })
    sock.once('connect', () => { sock.destroy(); ok(true) })
    sock.once('error', () => ok(false))
  })
}

/** One process as Linux's /proc shows it. */
export interface ProcessInfo {
  pid: number
  ppid: number
  /** `R`, `S`, … ; `Z` is a zombie: exited, not yet reaped by its parent. */
  state: string
  cmdline: string
}

/** Reads /proc/<pid>; null once the process is gone (exited and reaped). */
export function readProcess(pid: number): ProcessInfo | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // "pid (comm) state ppid …": comm may itself hold spaces and parentheses.
    const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim()
    return { pid, ppid: Number(ppid), state: state!, cmdline }
  } catch {
    return null
  }
}

/** The processes whose parent is `pid` and which have not exited (Linux /proc). */
export function childProcesses(pid: number): ProcessInfo[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map((name) => readProcess(Number(name)))
    .filter((p): p is ProcessInfo => p !== null && p.ppid === pid && p.state !== 'Z')
}

/** Whether `pid` is still running; a zombie (dead, not yet reaped) counts as gone. */
export function isRunning(pid: number): boolean {
  const p = readProcess(pid)
  return p !== null && p.state !== 'Z'
}

/**
 * Which of `pids` holds the server end of the loopback TCP connection from `clientPort` to `serverPort`: the inode
 * of that end, from /proc/net/tcp, among the sockets in each process's /proc/<pid>/fd. Undefined when none does (yet).
 */
export function connectionOwner(serverPort: number, clientPort: number, pids: number[]): number | undefined {
  const hexPort = (port: number) => port.toString(16).toUpperCase().padStart(4, '0')
  const inode = readFileSync('/proc/net/tcp', 'utf8')
    .split('\n')
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .find(([, local, remote]) => local?.endsWith(`:${hexPort(serverPort)}`) && remote?.endsWith(`:${hexPort(clientPort)}`))?.[9]
  if (!inode || inode === '0') return undefined
  return pids.find((pid) => {
    try {
      return readdirSync(`/proc/${pid}/fd`).some((fd) => {
        try {
          return readlinkSync(`/proc/${pid}/fd/${fd}`) === `socket:[${inode}]`
        } catch {
          return false // closed while we looked
        }
      })
    } catch {
      return false // the process is gone
    }
  })
}

export interface RunningProcess {
  child: ChildProcess
  /** The file node runs (`apps/api/dist/server.js`, or the source through tsx), as its command line shows it. */
  entry: string
  output: () => string
  /** Settles when the process has exited. */
  exited: Promise<void>
  stop: (signal?: NodeJS.Signals) => Promise<void>
}

/**
 * Waits until `ready`; a process that exits first fails at once rather than at the deadline, which only bounds a hang
 * (a busy shared machine can take tens of seconds to start one). A process that did not come up is killed.
 */
export async function untilReady(proc: RunningProcess, ready: () => Promise<boolean> | boolean, timeoutMs: number, what: string, port?: number): Promise<RunningProcess> {
  let gone = false
  void proc.exited.then(() => { gone = true })
  // Ready only on its own port: an answer there from another test's process is not this one being up.
  const own = () => port === undefined || listensOn(proc.child.pid!, port)
  try {
    await waitFor(async () => gone || ((await ready()) && own()), timeoutMs, what)
    if (gone) throw new Error(`${what}: it exited (${proc.child.exitCode ?? proc.child.signalCode}) first`)
  } catch (error) {
    await proc.stop('SIGKILL')
    throw new Error(`${(error as Error).message}\n${proc.output()}`, { cause: error })
  }
  return proc
}

/**
 * Starts a TypeScript file with tsx, or with `compiled` as production does: node on its `pnpm build` output
 * (`apps/x/src/y.ts` → `apps/x/dist/y.js`), with `nodeArgs` before it. An app's entry runs compiled unless
 * TEST_APPS_FROM_SOURCE=1. Output is kept for failure messages.
 */
export function startProcess(
  entry: string,
  env: Record<string, string>,
  options: { compiled?: boolean; nodeArgs?: string[] } = {},
): RunningProcess {
  const compiled = options.compiled ?? (!APPS_FROM_SOURCE && /^apps\/[^/]+\/src\//.test(entry))
  const file = join(REPO_ROOT, compiled ? compiledEntry(entry) : entry)
  const args = compiled
    ? [`--conditions=${COMPILED_CONDITION}`, ...(options.nodeArgs ?? []), file]
    : ['--import', TSX_LOADER, ...(options.nodeArgs ?? []), file]
  const child = spawn(process.execPath, args, {
    cwd: REPO_ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  child.stdout?.on('data', (d: Buffer) => { out += d.toString() })
  child.stderr?.on('data', (d: Buffer) => { out += d.toString() })
  const exited = new Promise<void>((r) => child.once('exit', () => r()))
  return {
    child,
    entry: file,
    output: () => out,
    exited,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal)
      await exited
    },
  }
}

/** Where `pnpm build` emits an app's source file: `apps/api/src/server.ts` → `apps/api/dist/server.js`. */
export function compiledEntry(entry: string): string {
  const match = /^(.*)\/src\/(.*)\.ts$/.exec(entry)
  if (!match) throw new Error(`not a source entry: ${entry}`)
  return `${match[1]}/dist/${match[2]}.js`
}

export interface StackOptions {
  env?: Record<string, string>
  /** The apps' `pnpm build` output run by node, as production does (true), or their sources through tsx (false); by default the former unless TEST_APPS_FROM_SOURCE=1. */
  compiled?: boolean
  /** Node options for both processes, e.g. `--import` of a test hook. */
  nodeArgs?: string[]
  /** Serve the built web app (needs `apps/web/dist`). */
  withWeb?: boolean
  mailDomains?: string
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
  /** Starts mail-ingest again after it was stopped (same port, same file). */
  restartIngest: () => Promise<RunningProcess>
  /** Starts the api again after it was stopped (same ports, same file, same environment). */
  restartApi: () => Promise<RunningProcess>
  stop: () => Promise<void>
}

/** Starts the real api and mail-ingest on free ports over a fresh temporary SQLite file. */
export function startStack(options: StackOptions = {}): Promise<Stack> {
  return onFreePorts(4, (ports) => startStackOn(ports, options))
}

async function startStackOn(ports: number[], options: StackOptions): Promise<Stack> {
  const [httpPort, smtpPort, metricsPort, ingestMetricsPort] = ports as [number, number, number, number]
  const dataDir = mkdtempSync(join(tmpdir(), 'tempbox-test-'))
  const dbPath = join(dataDir, 'tempbox.sqlite')
  const mailDomains = options.mailDomains ?? 'tempbox.test'
  const env: Record<string, string> = {
    DATABASE_PATH: dbPath,
    DATA_DIR: dataDir,
    MAIL_DOMAINS: mailDomains,
    HOST: '127.0.0.1',
    PORT: String(httpPort),
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: String(smtpPort),
    METRICS_PORT: String(metricsPort),
    INGEST_METRICS_PORT: String(ingestMetricsPort),
    WEB_DIST_DIR: options.withWeb ? join(REPO_ROOT, 'apps/web/dist') : '',
    ...options.env,
  }
  const apiUrl = `http://127.0.0.1:${httpPort}`
  const startupMs = 60_000
  // Liveness: readiness (/api/health) also wants mail-ingest, which starts next.
  const run = { compiled: options.compiled, nodeArgs: options.nodeArgs }
  const startApi = () => untilReady(startProcess('apps/api/src/server.ts', env, run), async () => (await fetch(`${apiUrl}/api/health/live`)).ok, startupMs, 'api to start', httpPort)
  const startIngest = () => untilReady(startProcess('apps/mail-ingest/src/main.ts', env, run), () => portAccepts(smtpPort), startupMs, 'mail-ingest to start', smtpPort)
  const api = await startApi()
  const stack: Stack = {
    apiUrl,
    httpPort,
    smtpPort,
    metricsPort,
    ingestMetricsPort,
    dbPath,
    dataDir,
    mailDomain: mailDomains.split(',')[0]!.trim(),
    api,
    ingest: await startIngest().catch(async (error: unknown) => {
      await api.stop()
      rmSync(dataDir, { recursive: true, force: true })
      throw error
    }),
    restartIngest: async () => {
      stack.ingest = await startIngest()
      return stack.ingest
    },
    restartApi: async () => {
      stack.api = await startApi()
      return stack.api
    },
    stop: async () => {
      await Promise.all([stack.api.stop(), stack.ingest.stop()])
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
  return stack
}

/** mail-ingest alone on a database it shares with other nodes (DATABASE_URL: PostgreSQL), as the api cannot run there yet. */
export interface IngestNode {
  smtpPort: number
  mailDomain: string
  ingest: RunningProcess
  /** Starts it again after it was stopped (same port, same database). */
  restartIngest: () => Promise<RunningProcess>
  stop: () => Promise<void>
}

/** Starts the real mail-ingest on a free port, storing to the PostgreSQL database at `databaseUrl`. */
export function startIngestNode(databaseUrl: string, options: { mailDomain?: string; env?: Record<string, string> } = {}): Promise<IngestNode> {
  return onFreePorts(2, (ports) => startIngestNodeOn(ports, databaseUrl, options))
}

async function startIngestNodeOn(ports: number[], databaseUrl: string, options: { mailDomain?: string; env?: Record<string, string> }): Promise<IngestNode> {
  const [smtpPort, ingestMetricsPort] = ports as [number, number]
  const dataDir = mkdtempSync(join(tmpdir(), 'tempbox-ingest-'))
  const mailDomain = options.mailDomain ?? 'tempbox.test'
  const env: Record<string, string> = {
    DATABASE_URL: databaseUrl,
    // Never written: set so that no default path points at the repository's own data folder.
    DATABASE_PATH: join(dataDir, 'unused.sqlite'),
    MAIL_DOMAINS: mailDomain,
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: String(smtpPort),
    INGEST_METRICS_PORT: String(ingestMetricsPort),
    ...options.env,
  }
  const start = () => untilReady(startProcess('apps/mail-ingest/src/main.ts', env), () => portAccepts(smtpPort), 180_000, 'mail-ingest to start', smtpPort)
  const node: IngestNode = {
    smtpPort,
    mailDomain,
    ingest: await start().catch((error: unknown) => {
      rmSync(dataDir, { recursive: true, force: true })
      throw error
    }),
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
 * Starts the real api (one process) on a free port over the PostgreSQL database at `databaseUrl`, as one node of
 * several: nodes of one service must share `JWT_SECRET` (tokens, and the keys its shared limits are hashed under).
 */
export function startApiNode(databaseUrl: string, options: { mailDomain?: string; jwtSecret: string; env?: Record<string, string> }): Promise<ApiNode> {
  return onFreePorts(2, (ports) => startApiNodeOn(ports, databaseUrl, options))
}

async function startApiNodeOn(ports: number[], databaseUrl: string, options: { mailDomain?: string; jwtSecret: string; env?: Record<string, string> }): Promise<ApiNode> {
  const [httpPort, metricsPort] = ports as [number, number]
  const dataDir = mkdtempSync(join(tmpdir(), 'tempbox-api-'))
  const env: Record<string, string> = {
    DATABASE_URL: databaseUrl,
    // Never written: set so that no default path points at the repository's own data folder.
    DATABASE_PATH: join(dataDir, 'unused.sqlite'),
    DATA_DIR: dataDir,
    JWT_SECRET: options.jwtSecret,
    MAIL_DOMAINS: options.mailDomain ?? 'tempbox.test',
    HOST: '127.0.0.1',
    PORT: String(httpPort),
    METRICS_PORT: String(metricsPort),
    WEB_DIST_DIR: '',
    ...options.env,
  }
  const apiUrl = `http://127.0.0.1:${httpPort}`
  const api = await untilReady(startProcess('apps/api/src/server.ts', env), async () => (await fetch(`${apiUrl}/api/health/live`)).ok, 180_000, 'api node to start', httpPort)
    .catch((error: unknown) => {
      rmSync(dataDir, { recursive: true, force: true })
      throw error
    })
  return {
    apiUrl,
    api,
    stop: async () => {
      await api.stop()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
