import { parentPort, Worker } from 'node:worker_threads'

interface Request<T> {
  id: number
  payload: T
}
type Reply<R> = { id: number; ok: true; result: R } | { id: number; ok: false; error: string }

export interface WorkerClient<T, R> {
  /** Settles once the worker has loaded its code and serves requests. */
  ready: Promise<void>
  call: (payload: T, transfer?: ArrayBuffer[]) => Promise<R>
  close: () => Promise<void>
}

/**
 * Our sources are TypeScript run through tsx, whose loader Node 20 does not pass on to worker threads.
 * The worker therefore starts from a tiny script that registers tsx, then imports the real entry.
 */
const TSX_API = import.meta.resolve('tsx/esm/api')
function bootstrap(url: URL): string {
  return `import(${JSON.stringify(TSX_API)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}) })`
}

/** Starts a worker running `url` and returns a promise-per-request client for it. */
export function startWorker<T, R>(url: URL, workerData: unknown, onCrash?: (error: Error) => void): WorkerClient<T, R> {
  const worker = new Worker(bootstrap(url), { eval: true, workerData })
  const pending = new Map<number, { resolve: (r: R) => void; reject: (e: Error) => void }>()
  let nextId = 0
  let exitError: Error | null = null
  let isClosing = false
  let markReady: () => void = () => {}
  let markFailed: (error: Error) => void = () => {}
  const ready = new Promise<void>((resolve, reject) => {
    markReady = resolve
    markFailed = reject
  })
  worker.on('message', (reply: Reply<R> | 'ready') => {
    if (reply === 'ready') {
      markReady()
      return
    }
    const waiter = pending.get(reply.id)
    if (!waiter) return
    pending.delete(reply.id)
    if (reply.ok) waiter.resolve(reply.result)
    else waiter.reject(new Error(reply.error))
  })
  const failAll = (error: Error) => {
    exitError = error
    markFailed(error)
    for (const waiter of pending.values()) waiter.reject(error)
    pending.clear()
  }
  worker.on('error', (error) => {
    console.error('[smtp] worker failed:', error)
    failAll(error)
  })
  worker.on('exit', (code) => {
    const error = new Error(`worker exited with code ${code}`)
    failAll(error)
    if (!isClosing) onCrash?.(error)
  })
  // Once up, the worker must not keep a stopping process alive on its own (before that it must, or a
  // process awaiting `ready` at top level would exit as if nothing were pending).
  ready.then(() => worker.unref(), () => {})
  return {
    ready,
    call: (payload, transfer) => {
      if (exitError) return Promise.reject(exitError)
      const id = nextId++
      return new Promise<R>((resolve, reject) => {
        pending.set(id, { resolve, reject })
        worker.postMessage({ id, payload } satisfies Request<T>, transfer ?? [])
      })
    },
    close: async () => {
      isClosing = true
      await worker.terminate()
    },
  }
}

/** Worker side: answers each request with `handler`'s result (or its error message). */
export function serveRequests<T, R>(handler: (payload: T) => Promise<R>, transferOf?: (result: R) => ArrayBuffer[]): void {
  if (!parentPort) throw new Error('serveRequests must run inside a worker thread')
  const port = parentPort
  port.postMessage('ready')
  port.on('message', ({ id, payload }: Request<T>) => {
    handler(payload).then(
      (result) => port.postMessage({ id, ok: true, result } satisfies Reply<R>, transferOf?.(result) ?? []),
      (error: unknown) => port.postMessage({ id, ok: false, error: error instanceof Error ? error.message : String(error) } satisfies Reply<R>),
    )
  })
}

/** Structured clone turns Buffers into Uint8Arrays; view them as Buffers again without copying. */
export function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
}
