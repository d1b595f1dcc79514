/** Worker settings that V8's `--max-semi-space-size` overrides: V8 applies the flag to every isolate, workers included. */
const OVERRIDDEN = ['INGEST_WORKER_YOUNG_GENERATION_MB', 'INGEST_CHECK_WORKER_YOUNG_GENERATION_MB'] as const

const FLAG = /^--max[-_]semi[-_]space[-_]size(?:=(\S+))?$/

/** The `--max-semi-space-size=<MB>` on node's command line (`process.execArgv`), or null. */
export function semiSpaceFlag(execArgv: readonly string[]): string | null {
  for (let i = 0; i < execArgv.length; i++) {
    const match = FLAG.exec(execArgv[i]!)
    if (match) return `--max-semi-space-size=${match[1] ?? execArgv[i + 1] ?? ''}`
  }
  return null
}

/** A warning for each young-generation setting the environment gives that the flag makes moot (none without it). */
export function youngGenerationWarnings(env: Record<string, string | undefined>, flag: string | null): string[] {
  if (!flag) return []
  return OVERRIDDEN.filter((name) => env[name]?.trim()).map(
    (name) => `[config] ${name} has no effect: node was started with ${flag}, which V8 applies to every thread's young generation`,
  )
}
