import cluster, { type Worker } from 'node:cluster'
import { migrateToLatest, openStorage } from '@tempbox/db'
import { storageConfig, type Config } from '../config.js'
import { setupKeyNotice } from '../services/accounts/setup-service.js'
import { serveIpc, workerPort, type IpcPort } from './ipc.js'
import { serveClusterMetrics } from './metrics.js'
import { primaryLog } from './primary-log.js'
import { PrimaryState } from '../service-state/cluster-primary-state.js'
import { ROLE_ENV, type WorkerRole } from './protocol.js'

/** First wait before replacing a dead worker; doubled for each further death within a minute, up to the cap. */
const RESTART_DELAY_MS = 250
const RESTART_DELAY_MAX_MS = 10_000
const CRASH_MEMORY_MS = 60_000
/** Workers close gracefully (open streams end, requests finish); one still up after this is killed. */
const STOP_GRACE_MS = 10_000

/**
 * Multi-process mode (API_PROCESSES > 1): this process only supervises. It forks the workers, which each build the
 * app and listen on HOST:PORT (Node's cluster hands them connections round-robin), holds the state they share
 * (PrimaryState) and answers their IPC requests, replaces a worker that dies, and stops them all on SIGINT/SIGTERM.
 */
export async function runPrimary(config: Config): Promise<void> {
  // Once, here: workers starting together on a new file would race to migrate it.
  const storage = openStorage(storageConfig(config, { poolSize: 1 }))
  await migrateToLatest(storage.db)
  const log = primaryLog(config.logLevel)
  const notice = await setupKeyNotice(storage.db, config)
  if (notice) log.warn(notice)
  await storage.close()

  const metrics = await serveClusterMetrics(config, (err) => log.error('[metrics] collecting from the workers failed', err))
  log.info(`[metrics] listening on ${config.metrics.host}:${metrics.port}`)
  const state = new PrimaryState(config)
  const workers = new Map<Worker, { port: IpcPort; role: WorkerRole; firstGeneration: boolean; listened: boolean }>()
  const handlers = state.handlers((origin) => [...workers.values()].map((w) => w.port).filter((port) => port !== origin))
  const pendingRestarts = new Set<NodeJS.Timeout>()
  let crashes: number[] = []
  let stopping = false

  const sweepTimer = setInterval(() => state.sweep(), config.sweepIntervalMs)
  sweepTimer.unref()

  const fork = (role: WorkerRole, firstGeneration: boolean) => {
    const worker = cluster.fork({ [ROLE_ENV]: role })
    const port = workerPort(worker)
    const entry = { port, role, firstGeneration, listened: false }
    workers.set(worker, entry)
    serveIpc(port, handlers, (err) => log.error('[cluster] a worker request failed', err))
    worker.once('listening', (address) => {
      entry.listened = true
      if (firstGeneration && [...workers.values()].every((w) => w.listened)) {
        // The port they share: with PORT=0 the one the first listener got.
        log.info(`[cluster] ${workers.size} workers serving http://${config.host}:${address.port}`)
      }
    })
  }

  cluster.on('exit', (worker, code, signal) => {
    const entry = workers.get(worker)
    workers.delete(worker)
    if (!entry) return
    state.workerGone(entry.port)
    if (stopping) {
      if (workers.size === 0) finish(0)
      return
    }
    const how = signal ? `signal ${signal}` : `code ${code}`
    if (entry.firstGeneration && !entry.listened) {
      // It never served: the same cause (port taken, unreadable database) would stop every replacement too.
      log.error(`[cluster] worker ${worker.process.pid} exited (${how}) before it could serve; stopping`)
      stop('SIGTERM', 1)
      return
    }
    const now = Date.now()
    crashes = [...crashes.filter((t) => t > now - CRASH_MEMORY_MS), now]
    const delay = Math.min(RESTART_DELAY_MS * 2 ** (crashes.length - 1), RESTART_DELAY_MAX_MS)
    log.warn(`[cluster] worker ${worker.process.pid} (${entry.role}) exited unexpectedly (${how}); starting a replacement in ${delay} ms`)
    const timer = setTimeout(() => {
      pendingRestarts.delete(timer)
      fork(entry.role, false)
    }, delay)
    pendingRestarts.add(timer)
  })

  let exitCode = 0
  const finish = (code: number) => {
    clearInterval(sweepTimer)
    process.exit(code || exitCode)
  }
  const stop = (signal: NodeJS.Signals, code = 0) => {
    exitCode ||= code
    if (stopping) return
    stopping = true
    for (const timer of pendingRestarts) clearTimeout(timer)
    if (workers.size === 0) return finish(0)
    log.info(`[cluster] ${signal}: stopping ${workers.size} worker(s)`)
    for (const worker of workers.keys()) worker.process.kill(signal)
    setTimeout(() => {
      for (const worker of workers.keys()) worker.process.kill('SIGKILL')
    }, STOP_GRACE_MS).unref()
  }
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => stop(signal))

  // One worker sweeps expired addresses; its replacement inherits the duty.
  for (let i = 0; i < config.apiProcesses; i++) fork(i === 0 ? 'sweeper' : 'server', true)
}
