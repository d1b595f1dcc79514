import { spawn, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import { REPO_ROOT } from './repo-root.js'
import { waitFor } from './wait-for.js'

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
export async function untilReady(proc: RunningProcess, ready: () => Promise<boolean> | boolean, timeoutMs: number, what: string): Promise<RunningProcess> {
  let gone = false
  void proc.exited.then(() => { gone = true })
  try {
    await waitFor(async () => gone || (await ready()), timeoutMs, what)
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
  // Without the NODE_PATH vitest's pnpm shim sets (pnpm's hidden hoisted store): with it, a bundle that requires a
  // package its app does not list ran here and failed under `pnpm start` and in the image.
  const { NODE_PATH: _shimPath, ...inherited } = process.env
  const child = spawn(process.execPath, args, {
    cwd: REPO_ROOT,
    env: { ...inherited, LOG_LEVEL: 'warn', ...env },
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
