import type { MessagePort } from 'node:worker_threads'
import { fullSource } from '@tempbox/db/message-source'
import type { MessageToStore } from '../store-message.js'
import type { AuthJob } from './queue.js'
import { headerBlockEnd, signsBody } from './header-block.js'
import { movableMemory } from '../worker-rpc.js'
import { postBatches, type PostBatches } from '../post-batches.js'

/**
 * After a commit: hands each message that asked for a check (it carries the SMTP envelope) to the auth worker, with
 * what the check must read of it (authSourceOf).
 */
export function sendAuthJobs(port: Pick<MessagePort, 'postMessage'>, messages: MessageToStore[], contentIds: number[]): void {
  let batch = batches.get(port)
  if (!batch) {
    batch = postBatches<Committed>((committed) => postJobs(port, committed), AUTH_JOBS_EVERY_MS)
    batches.set(port, batch)
  }
  messages.forEach((message, i) => {
    if (message.envelope) batch.push({ message, contentId: contentIds[i]! })
  })
}

/**
 * The check is not on the way to any 250, so the jobs of a few milliseconds of commits go in one message: one copy of
 * the envelopes and one wake-up of the worker per period, not per commit (under load, each post cost the committing
 * thread more than a message's inserts). Copying the sources waits for then too, so no 250 waits for it.
 */
const AUTH_JOBS_EVERY_MS = 10
interface Committed {
  message: MessageToStore
  contentId: number
}
const batches = new WeakMap<object, PostBatches<Committed>>()

function postJobs(port: Pick<MessagePort, 'postMessage'>, committed: Committed[]): void {
  const jobs: AuthJob[] = []
  const moved: ArrayBuffer[] = []
  for (const { message, contentId } of committed) {
    const { bytes, movable } = authSourceOf(message)
    jobs.push({ contentId, raw: bytes, envelope: message.envelope! })
    if (movable) moved.push(bytes.buffer as ArrayBuffer)
  }
  port.postMessage(jobs, moved)
}

/**
 * What the sender check reads of a message. Only a DKIM signature or an ARC set hashes the body; without either in the
 * header block, SPF, DMARC and "no signature" are decided by the header block and the envelope alone, so the check gets
 * just that (mailauth then gives the same verdict without streaming the body through its parser). Otherwise it gets
 * the source as received, rebuilt when only the header block was stored (DKIM hashes the body exactly as sent).
 * `movable`: the bytes are a copy of their own, which moves to the auth worker rather than being copied again.
 */
export function authSourceOf({ source, parsed }: Pick<MessageToStore, 'source' | 'parsed'>): { bytes: Buffer; movable: boolean } {
  const { raw, bodyIsText } = source
  const headEnd = headerBlockEnd(raw)
  if (headEnd >= 0 && !signsBody(raw.toString('latin1', 0, headEnd))) return { bytes: copyOf(raw.subarray(0, headEnd)), movable: true }
  if (!bodyIsText) return { bytes: raw, movable: false }
  const text = parsed.text
  const textString = typeof text === 'string' || text === null ? text : Buffer.from(text.buffer, text.byteOffset, text.byteLength).toString('utf8')
  return { bytes: owned(fullSource({ raw, raw_body_is_text: 1, text: textString })), movable: true }
}

/**
 * Bytes made here, in memory of their own so they can move to another thread: themselves when they already span their
 * whole ArrayBuffer, else a copy (a view of Buffer's pool would otherwise clone all of the pool).
 */
function owned(made: Buffer): Buffer {
  return movableMemory([made]).length > 0 ? made : copyOf(made)
}

/** A copy in memory of its own (the message's bytes stay where they are: others may still read them). */
function copyOf(bytes: Buffer): Buffer {
  const copy = Buffer.allocUnsafeSlow(bytes.length)
  bytes.copy(copy)
  return copy
}
