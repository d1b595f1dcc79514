import type { FastifyBaseLogger } from 'fastify'

type Bindings = Record<string, unknown>
type ChildOptions = { level?: string } & Record<string, unknown>

const LEVELS: Record<string, number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Infinity }

/**
 * A request's logger that becomes pino's child only when it writes a line. Fastify makes a child per request (its
 * bindings stringified, its level set): a fifth of a poll's cost, for lines that are almost never written.
 */
class LazyChildLogger {
  private made: FastifyBaseLogger | null = null
  private readonly threshold: number

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildOptions,
  ) {
    this.threshold = LEVELS[options.level ?? parent.level] ?? 0
  }

  private real(): FastifyBaseLogger {
    return (this.made ??= this.parent.child(this.bindings, this.options))
  }

  get level(): string {
    return this.made?.level ?? this.options.level ?? this.parent.level
  }

  set level(level: string) {
    this.real().level = level
  }

  fatal(...args: unknown[]): void {
    this.write('fatal', args)
  }

  error(...args: unknown[]): void {
    this.write('error', args)
  }

  warn(...args: unknown[]): void {
    this.write('warn', args)
  }

  info(...args: unknown[]): void {
    this.write('info', args)
  }

  debug(...args: unknown[]): void {
    this.write('debug', args)
  }

  trace(...args: unknown[]): void {
    this.write('trace', args)
  }

  silent(): void {}

  child(bindings: Bindings, options?: ChildOptions): FastifyBaseLogger {
    return this.real().child(bindings, options)
  }

  private write(level: keyof typeof LEVELS, args: unknown[]): void {
    // Below the level nothing is written, so no child is made; a level changed on the real child is its own to judge.
    if (this.made === null && LEVELS[level]! < this.threshold) return
    ;(this.real()[level as 'info'] as (...a: unknown[]) => void)(...args)
  }
}

/** Fastify's `childLoggerFactory`. */
export function lazyChildLogger(logger: FastifyBaseLogger, bindings: Bindings, options: object): FastifyBaseLogger {
  return new LazyChildLogger(logger, bindings, options as ChildOptions) as unknown as FastifyBaseLogger
}
