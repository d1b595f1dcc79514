import type { Worker } from 'node:cluster'
import type { ErrorCode } from '@tempbox/types'
import { AppError } from '../errors.js'
import type { PrimaryMethods, WorkerEvents } from './protocol.js'

/**
 * A worker waits this long for the primary before answering 503. An IPC round trip takes well under a millisecond;
 * only a primary that is gone or stuck gets near it, and then refusing is the safe answer for a limit.
 */
export const IPC_TIMEOUT_MS = 2_000

export const UNAVAILABLE = 'The service is briefly unavailable. Please try again in a moment.'

interface SerializedError {
  code: ErrorCode
  message: string
  fields?: Record<string, string>
}

export type IpcMessage =
  | { tempbox: 'request'; id: number; method: string; args: unknown }
  | { tempbox: 'response'; id: number; ok: true; value?: unknown }
  | { tempbox: 'response'; id: number; ok: false; error: SerializedError }
  | { tempbox: 'event'; name: string; args: unknown }

/** One end of an IPC channel: the worker's `process`, the primary's handle on a worker, or a test double. */
export interface IpcPort {
  /** `failed` is called when the message could not be sent (the other side is gone). */
  send(message: IpcMessage, failed: (error: Error) => void): void
  onMessage(listener: (message: unknown) => void): void
}

function isIpcMessage(message: unknown): message is IpcMessage {
  return typeof message === 'object' && message !== null && 'tempbox' in message
}

/** The worker's end: its own process's channel to the primary. */
export function processPort(): IpcPort {
  return {
    send(message, failed) {
      if (!process.send || !process.connected) return failed(new Error('IPC channel closed'))
      process.send(message, undefined, {}, (error: Error | null) => error && failed(error))
    },
    onMessage(listener) {
      process.on('message', listener)
    },
  }
}

/** The primary's end of one worker's channel. */
export function workerPort(worker: Worker): IpcPort {
  return {
    send(message, failed) {
      if (!worker.isConnected()) return failed(new Error('IPC channel closed'))
      worker.send(message, undefined, {}, (error: Error | null) => error && failed(error))
    },
    onMessage(listener) {
      worker.on('message', listener)
    },
  }
}

interface Pending {
  resolve: (value: unknown) => void
  reject: (error: Error) => void
  timer: NodeJS.Timeout
}

/** A worker's requests to the primary (each answered or failed with 503 within IPC_TIMEOUT_MS), and its events. */
export class IpcClient {
  private nextId = 1
  private readonly pending = new Map<number, Pending>()
  private readonly handlers = new Map<string, Set<(args: never) => void>>()

  constructor(
    private readonly port: IpcPort,
    private readonly timeoutMs = IPC_TIMEOUT_MS,
  ) {
    port.onMessage((message) => this.receive(message))
  }

  request<M extends keyof PrimaryMethods>(method: M, args: PrimaryMethods[M][0]): Promise<PrimaryMethods[M][1]> {
    return new Promise((resolve, reject) => {
      const id = this.nextId++
      const fail = () => {
        const pending = this.pending.get(id)
        if (!pending) return
        clearTimeout(pending.timer)
        this.pending.delete(id)
        reject(new AppError('unavailable', UNAVAILABLE))
      }
      const timer = setTimeout(fail, this.timeoutMs)
      timer.unref()
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject, timer })
      this.port.send({ tempbox: 'request', id, method, args }, fail)
    })
  }

  on<E extends keyof WorkerEvents>(name: E, handler: (args: WorkerEvents[E]) => void): void {
    let set = this.handlers.get(name)
    if (!set) this.handlers.set(name, (set = new Set()))
    set.add(handler as (args: never) => void)
  }

  private receive(message: unknown): void {
    if (!isIpcMessage(message)) return
    if (message.tempbox === 'event') {
      for (const handler of this.handlers.get(message.name) ?? []) handler(message.args as never)
      return
    }
    if (message.tempbox !== 'response') return
    const pending = this.pending.get(message.id)
    if (!pending) return
    clearTimeout(pending.timer)
    this.pending.delete(message.id)
    if (message.ok) pending.resolve(message.value)
    else pending.reject(new AppError(message.error.code, message.error.message, message.error.fields))
  }
}

export type IpcHandlers = {
  [M in keyof PrimaryMethods]: (args: PrimaryMethods[M][0], origin: IpcPort) => PrimaryMethods[M][1] | Promise<PrimaryMethods[M][1]>
}

/**
 * The primary's side: answers each request from `port` with its handler's result or error. AppErrors reach the
 * worker as they are (a 429 stays a 429); anything else is reported to `onUnexpected` and answers a generic 500.
 */
export function serveIpc(port: IpcPort, handlers: IpcHandlers, onUnexpected: (err: unknown) => void): void {
  port.onMessage((message) => {
    if (!isIpcMessage(message) || message.tempbox !== 'request') return
    const { id, method, args } = message
    const reply = (answer: IpcMessage) => port.send(answer, () => undefined) // the worker is gone: nobody waits
    const handler = Object.hasOwn(handlers, method) ? (handlers[method as keyof PrimaryMethods] as (args: unknown, origin: IpcPort) => unknown) : null
    Promise.resolve()
      .then(() => {
        if (!handler) throw new Error(`unknown IPC method "${method}"`)
        return handler(args, port)
      })
      .then(
        (value) => reply({ tempbox: 'response', id, ok: true, value }),
        (err: unknown) => {
          if (!(err instanceof AppError)) onUnexpected(err)
          reply({ tempbox: 'response', id, ok: false, error: serializeError(err) })
        },
      )
  })
}

/** Sends an event to a worker; one that is gone simply misses it. */
export function sendEvent<E extends keyof WorkerEvents>(port: IpcPort, name: E, args: WorkerEvents[E]): void {
  port.send({ tempbox: 'event', name, args }, () => undefined)
}

function serializeError(err: unknown): SerializedError {
  if (err instanceof AppError) return { code: err.code, message: err.message, ...(err.fields ? { fields: err.fields } : {}) }
  return { code: 'internal', message: 'Something went wrong on our side. Please try again.' }
}
