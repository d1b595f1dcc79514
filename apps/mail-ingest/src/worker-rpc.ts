import { parentPort, Worker, type Transferable } from 'node:worker_threads'

/**
 * Our sources are TypeScript run through tsx, whose loader Node 20 does not pass on to worker threads.
 * The worker therefore starts from a tiny script that registers tsx, then imports the real entry.
 */
const TSX_API = import.meta.resolve('tsx/esm/api')
function bootstrap(url: URL): string {
  return `import(${JSON.stringify(TSX_API)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}) })`
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
  options: { workerData?: unknown; transferList?: Transferable[]; onMessage: (message: unknown) => void; onCrash: (error: Error) => void },
): StartedWorker & { stop: () => Promise<void> } {
  const worker = new Worker(bootstrap(url), { eval: true, workerData: options.workerData, transferList: options.transferList })
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
