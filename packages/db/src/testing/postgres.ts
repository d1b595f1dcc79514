import { spawn, spawnSync } from 'node:child_process'
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statfsSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'

/**
 * A throwaway PostgreSQL for tests: a real server (Debian's `postgresql` package), in a temporary folder, on a free
 * port of 127.0.0.1, stopped and deleted by `stop()`. No mock and no in-memory imitation.
 */
export interface PostgresServer {
  /** Superuser URL of the server's `postgres` database (trust auth, loopback only). */
  url: string
  /** The postmaster's process id: its process tree is the server (benchmarks count that tree's CPU). */
  pid: number
  stop(): Promise<void>
}

const POSTGRES_ROOT = '/usr/lib/postgresql'

/** The newest installed server's bin folder (Debian keeps it off the PATH), or POSTGRES_BIN when set. */
export function postgresBinDir(): string {
  const fromEnv = process.env.POSTGRES_BIN
  if (fromEnv) return fromEnv
  const versions = existsSync(POSTGRES_ROOT)
    ? readdirSync(POSTGRES_ROOT).filter((v) => existsSync(join(POSTGRES_ROOT, v, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a))
    : []
  if (versions.length === 0) {
    throw new Error(`PostgreSQL's server is not installed: no ${POSTGRES_ROOT}/<version>/bin/initdb (apt-get install -y postgresql)`)
  }
  return join(POSTGRES_ROOT, versions[0]!, 'bin')
}

/** initdb refuses to run as root: as root the server's tools run as the `postgres` user, otherwise as ourselves. */
function asServerUser(bin: string, args: string[]): [string, string[]] {
  return process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args]
}

function run(bin: string, args: string[], logFile?: string): Promise<void> {
  const [command, argv] = asServerUser(bin, args)
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv, { stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (d: Buffer) => (output += d.toString()))
    child.stderr.on('data', (d: Buffer) => (output += d.toString()))
    child.on('error', reject)
    child.on('close', (code) => {
      if (code === 0) return resolve()
      const log = logFile && existsSync(logFile) ? `\n${readFileSync(logFile, 'utf8').slice(-2000)}` : ''
      reject(new Error(`${bin} ${args.join(' ')} exited with ${code}: ${output.trim()}${log}`))
    })
  })
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

function serverUid(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null
  const id = (flag: string) => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim())
  return { uid: id('-u'), gid: id('-g') }
}

/** Free space a server in memory must find on /dev/shm: its databases, dropped file by file, and its WAL (below). */
const MEMORY_DIR_MIN_FREE_BYTES = 2 * 1024 ** 3

/** /dev/shm when it is a memory file system with room to spare (a container's is often 64 MB), else undefined. */
function memoryBackedDir(): string | undefined {
  if (process.platform !== 'linux' || !existsSync('/dev/shm')) return undefined
  try {
    const fs = statfsSync('/dev/shm')
    return fs.bavail * fs.bsize >= MEMORY_DIR_MIN_FREE_BYTES ? '/dev/shm' : undefined
  } catch {
    return undefined
  }
}

/**
 * initdb + pg_ctl start (≈ 3 s); stops when this process exits. Durable like production (`fsync=on`) unless
 * `durable: false`: the test suites' server, which has no power loss to survive (a process killed mid-write loses
 * nothing either way), skips the flushes that made each `CREATE DATABASE` and commit wait on the disk, and keeps its
 * files in memory when it can: creating a database's ~300 files on ext4 was a third of that server's CPU.
 */
export async function startPostgres({ durable = true }: { durable?: boolean } = {}): Promise<PostgresServer> {
  const bin = postgresBinDir()
  const dir = mkdtempSync(join((durable ? undefined : memoryBackedDir()) ?? tmpdir(), 'tempbox-pg-'))
  const owner = serverUid()
  if (owner) chownSync(dir, owner.uid, owner.gid)
  const data = join(dir, 'data')
  const log = join(dir, 'pg.log')
  await run(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync'], log)

  let port: number
  for (let attempt = 1; ; attempt++) {
    port = await freePort()
    // max_wal_size: the suites write far more WAL than anything keeps; its default 1 GB would sit on /dev/shm.
    const flushes = durable ? '-c fsync=on' : '-c fsync=off -c full_page_writes=off -c max_wal_size=128MB'
    const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 ${flushes} -c max_connections=200`
    try {
      await run(join(bin, 'pg_ctl'), ['-D', data, '-o', options, '-l', log, '-w', '-t', '60', 'start'], log)
      break
    } catch (err) {
      // Another process may take the port between our probe and the server's bind: try another one.
      if (attempt >= 3) {
        rmSync(dir, { recursive: true, force: true })
        throw err
      }
    }
  }

  let stopped = false
  // A run cut short (Ctrl-C, a crash) must not leave a server behind: stop it synchronously on the way out.
  const stopOnExit = () => {
    if (stopped) return
    stopped = true
    const [command, argv] = asServerUser(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop'])
    spawnSync(command, argv, { stdio: 'ignore' })
    rmSync(dir, { recursive: true, force: true })
  }
  process.once('exit', stopOnExit)

  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    // postmaster.pid's first line, written before pg_ctl -w returns.
    pid: Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]),
    async stop() {
      if (stopped) return
      stopped = true
      process.removeListener('exit', stopOnExit)
      try {
        await run(join(bin, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop'], log)
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    },
  }
}

/** The URL of `server` with another database name. */
export function databaseUrl(serverUrl: string, database: string): string {
  const url = new URL(serverUrl)
  url.pathname = `/${database}`
  return url.toString()
}

let created = 0
const adminPools = new Map<string, pg.Pool>()

/**
 * This process's sessions on the server at `serverUrl` for CREATE and DROP DATABASE, kept between tests: a session of
 * its own for each cost the server a backend start. Two, so a create need not wait behind a drop that PostgreSQL holds
 * for seconds while the database is still in use; they close when idle, and never keep the process alive.
 */
function adminPool(serverUrl: string): pg.Pool {
  let pool = adminPools.get(serverUrl)
  if (!pool) {
    pool = new pg.Pool({ connectionString: serverUrl, max: 2, idleTimeoutMillis: 30_000, allowExitOnIdle: true })
    // A server stopped under an idle session: the pool drops that client and opens another when next asked.
    pool.on('error', () => undefined)
    adminPools.set(serverUrl, pool)
  }
  return pool
}

/** Drops `names` on the server at `serverUrl`; returns those still in use (a connection left open), kept for later. */
export async function dropTestDatabases(serverUrl: string, names: string[]): Promise<string[]> {
  const inUse: string[] = []
  if (names.length === 0) return inUse
  const client = await adminPool(serverUrl).connect()
  try {
    for (const name of names) {
      await client.query(`DROP DATABASE IF EXISTS "${name}"`).catch((err: { code?: string }) => {
        if (err.code !== '55006') throw err
        inUse.push(name)
      })
    }
  } finally {
    client.release()
  }
  return inUse
}

/**
 * A new database on the server at `serverUrl` (e.g. one per test file), empty or a copy of `template`; returns its URL.
 * FILE_COPY copies the files and checkpoints: PostgreSQL's default strategy writes every page of the copy through the
 * WAL, which cost the test servers several times the CPU per database.
 */
export async function createTestDatabase(serverUrl: string, prefix = 'test', template?: string): Promise<string> {
  const name = `${prefix}_${process.pid}_${Date.now().toString(36)}_${created++}`.toLowerCase().replace(/[^a-z0-9_]/g, '_')
  await adminPool(serverUrl).query(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ''} STRATEGY FILE_COPY`)
  return databaseUrl(serverUrl, name)
}
