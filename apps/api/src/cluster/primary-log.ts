import { hostname } from 'node:os'

const LEVELS: Record<string, number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 }

export interface PrimaryLog {
  info(msg: string): void
  warn(msg: string): void
  error(msg: string, err?: unknown): void
}

/**
 * The primary builds no Fastify app, so it has no pino logger: it writes the same JSON lines at the same LOG_LEVEL,
 * so its lines sit among the workers' in one format. It never logs a client's IP: it never has one to log.
 */
export function primaryLog(level: string, out: NodeJS.WritableStream = process.stdout): PrimaryLog {
  const threshold = level === 'silent' ? Infinity : (LEVELS[level] ?? LEVELS.info!)
  const host = hostname()
  const write = (n: number, msg: string, extra: object = {}) => {
    if (n >= threshold) out.write(JSON.stringify({ level: n, time: Date.now(), pid: process.pid, hostname: host, ...extra, msg }) + '\n')
  }
  return {
    info: (msg) => write(30, msg),
    warn: (msg) => write(40, msg),
    error: (msg, err) => write(50, msg, err instanceof Error ? { err: { type: err.name, message: err.message, stack: err.stack } } : {}),
  }
}
