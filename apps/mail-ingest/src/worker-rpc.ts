import { parentPort, Worker, type Transferable } from 'node:worker_threads'

/**
 * Callers name a worker by its source file (`new URL('./x.ts', import.meta.url)`). Compiled (`pnpm build`, run with
 * node), the entry is the emitted .js beside it. From source, tsx's loader is not passed on to worker threads by
 * Node 20, so the worker starts from a tiny script that registers tsx, then imports the real entry; tsx is only a
 * development dependency, hence resolved here and not at load time.
 */
const IS_COMPILED = import.meta.url.endsWith('.js')
function workerEntry(url: URL): { entry: URL | string; eval: boolean } {
  if (IS_COMPILED) return { entry: new URL(url.href.replace(/\.ts$/, '.js')), eval: false }
  const tsx = import.meta.resolve('tsx/esm/api')
  return {
    entry: `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}) })`,
    eval: true,
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
  const { entry, eval: isEval } = workerEntry(url)
  const resourceLimits = {
    ...(options.youngGenerationMb ? { maxYoungGenerationSizeMb: options.youngGenerationMb } : {}),
    ...(options.oldGenerationMb ? { maxOldGenerationSizeMb: options.oldGenerationMb } : {}),
  }
  const worker = new Worker(entry, { eval: isEval, workerData: options.workerData, transferList: options.transferList, resourceLimits })
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
