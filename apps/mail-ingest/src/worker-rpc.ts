import { readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { basename, join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { parentPort, Worker, type Transferable } from 'node:worker_threads'

/**
 * Callers name a worker by its source file (`new URL('./x.ts', import.meta.url)`). Compiled (`pnpm build`, run with
 * node), the entry is the emitted .js beside it. From source (tests, `pnpm dev`), see sourceBundle.
 */
const IS_COMPILED = import.meta.url.endsWith('.js')
function workerEntry(url: URL): URL {
  return IS_COMPILED ? new URL(url.href.replace(/\.ts$/, '.js')) : pathToFileURL(sourceBundle(url))
}

/** Readies `url` to start as a worker later without delay (from source: bundles it now, see sourceBundle). */
export function prepareWorker(url: URL): void {
  workerEntry(url)
}

/** Native addons, loaded from node_modules as in the compiled bundles (scripts/bundle-app.mjs). */
const NATIVE = ['better-sqlite3', 'argon2', 'pg-native']
/** Spelled out in pieces: scripts/bundle-app.mjs rewrites that expression wherever our compiled code has it. */
const IMPORT_META_URL = ['import', 'meta', 'url'].join('.')
/** The newest bundle of each worker this process started, by source URL, with our sources in it and their change times. */
const sourceBundles = new Map<string, { file: string; sources: string[]; changedAt: string }>()
/** Every bundle this process wrote, removed when it exits (an older one may still be loading in a worker). */
const bundlesMade: string[] = []
/** When each of `sources` last changed (none for one that is gone). */
const changeTimes = (sources: string[]) => sources.map((f) => statSync(f, { throwIfNoEntry: false })?.mtimeMs ?? 'none').join()

/**
 * A worker started from TypeScript would register tsx and load its hundreds of modules one by one through loader hooks,
 * on a hooks thread of its own: ~1.4 CPU-s a start, which the ingest suite paid 51 times. esbuild (a development
 * dependency, like tsx) bundles each worker's sources once per process instead, as `pnpm build` bundles dist/.
 */
function sourceBundle(url: URL): string {
  const made = sourceBundles.get(url.href)
  // A long-lived test process (vitest watch) starts workers again after their sources were edited.
  if (made && changeTimes(made.sources) === made.changedAt) return made.file
  const esbuild = createRequire(import.meta.url)('esbuild') as typeof import('esbuild')
  const source = fileURLToPath(url)
  // In the app's node_modules: what stays external resolves from there, and the bundle sits as deep as a package's
  // src/, so a path one of our modules takes from its own location (database-path.ts: ../../..) still holds.
  const dir = fileURLToPath(new URL('../node_modules/', import.meta.url))
  const file = join(dir, `.tempbox-worker-${basename(source, '.ts')}-${process.pid}-${bundlesMade.length}.mjs`)
  const { outputFiles, metafile } = esbuild.buildSync({
    entryPoints: [source],
    bundle: true,
    write: false,
    outfile: file,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: NATIVE,
    // As scripts/bundle-app.mjs bundles workers: a defineProperty per closure made, and nothing here reads fn.name.
    keepNames: false,
    logLevel: 'warning',
    metafile: true,
    // CommonJS dependencies inside an ES module still call require().
    banner: { js: `import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(${IMPORT_META_URL});` },
  })
  // Written whole, then renamed: another process bundling the same worker never reads half a file.
  writeFileSync(`${file}.tmp`, outputFiles[0]!.contents)
  renameSync(`${file}.tmp`, file)
  if (bundlesMade.push(file) === 1) {
    process.once('exit', () => bundlesMade.forEach((f) => rmSync(f, { force: true })))
    removeBundlesOfEndedProcesses(dir)
  }
  // Ours only: what is under node_modules does not change while a process runs.
  const sources = Object.keys(metafile.inputs).filter((input) => !input.includes('node_modules/')).map((input) => resolve(input))
  sourceBundles.set(url.href, { file, sources, changedAt: changeTimes(sources) })
  return file
}

/** A process killed without its exit handler (a test runner's worker, say) leaves its bundles: its successors remove them. */
export function removeBundlesOfEndedProcesses(dir: string): void {
  for (const name of readdirSync(dir)) {
    const pid = /^\.tempbox-worker-.+-(\d+)-\d+\.mjs(\.tmp)?$/.exec(name)?.[1]
    if (pid && !isRunning(Number(pid))) rmSync(join(dir, name), { force: true })
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** First message a worker sends once its code is loaded. */
const READY = 'ready'

export interface StartedWorker {
  worker: Worker
  /** Settles once the worker has loaded its code and listens. */
  ready: Promise<void>
}

/**
 * Starts a worker running `url`. Any exit we did not ask for calls `onCrash`: messages it held can no
 * longer be acknowledged, so the caller decides (we exit and let the supervisor restart us).
 */
export function startWorker(
  url: URL,
  options: {
    workerData?: unknown
    transferList?: Transferable[]
    /** The thread's young generation (V8 would let it grow to 48 MB under load, see INGEST_WORKER_YOUNG_GENERATION_MB). */
    youngGenerationMb?: number
    /** The thread's old-generation limit: V8 sizes its collections by it (INGEST_WORKER_OLD_GENERATION_MB). */
    oldGenerationMb?: number
    onMessage: (message: unknown) => void
    onCrash: (error: Error) => void
  },
): StartedWorker & { stop: () => Promise<void> } {
  const entry = workerEntry(url)
  const resourceLimits = {
    ...(options.youngGenerationMb ? { maxYoungGenerationSizeMb: options.youngGenerationMb } : {}),
    ...(options.oldGenerationMb ? { maxOldGenerationSizeMb: options.oldGenerationMb } : {}),
  }
  const worker = new Worker(entry, { workerData: options.workerData, transferList: options.transferList, resourceLimits })
  let isStopping = false
  let markReady: () => void = () => {}
  let markFailed: (error: Error) => void = () => {}
  const ready = new Promise<void>((resolve, reject) => {
    markReady = resolve
    markFailed = reject
  })
  worker.on('message', (message: unknown) => {
    if (message === READY) markReady()
    else options.onMessage(message)
  })
  worker.on('error', (error) => console.error('[smtp] worker failed:', error))
  worker.on('exit', (code) => {
    const error = new Error(`worker exited with code ${code}`)
    markFailed(error)
    if (!isStopping) options.onCrash(error)
  })
  // Once up, the worker must not keep a stopping process alive on its own (before that it must, or a
  // process awaiting `ready` at top level would exit as if nothing were pending).
  ready.then(() => worker.unref(), () => {})
  return {
    worker,
    ready,
    stop: async () => {
      isStopping = true
      await worker.terminate()
    },
  }
}

/** Worker side: tells the parent the worker is loaded and listening. */
export function signalReady(): void {
  parentPort?.postMessage(READY)
}

/**
 * The memory of these buffers that can move to another thread instead of being copied: each ArrayBuffer that one of
 * them spans whole (a pooled or sliced Buffer shares its ArrayBuffer, which must stay). Cloning copies a view's whole
 * ArrayBuffer, not just the view, so a header block sliced from a 100 KB message would otherwise copy all 100 KB.
 * The caller must not read the buffers afterwards.
 */
export function movableMemory(buffers: Iterable<Uint8Array>): ArrayBuffer[] {
  const owned = new Set<ArrayBuffer>()
  for (const b of buffers) {
    if (b.byteOffset === 0 && b.byteLength === b.buffer.byteLength && b.buffer instanceof ArrayBuffer) owned.add(b.buffer)
  }
  return [...owned]
}

/** Structured clone turns Buffers into Uint8Arrays; view them as Buffers again without copying. */
export function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
}
