import type { MessagePort } from 'node:worker_threads'
import { fullSource } from '@tempbox/db'
import type { IncomingMessage } from '../store-message.js'
import type { AuthJob } from './queue.js'

/**
 * After a commit: hands each message that asked for a check (it carries the SMTP envelope) to the auth worker, with the
 * source rebuilt as received when only its header block was stored (DKIM hashes the body exactly as sent).
 */
export function sendAuthJobs(port: Pick<MessagePort, 'postMessage'>, messages: IncomingMessage[], contentIds: number[]): void {
  // Called as the batch commits, before the acknowledgements are sent (they follow in promise callbacks): copying the
  // sources waits for the next turn, so no 250 waits for it.
  setImmediate(() => postJobs(port, messages, contentIds))
}

function postJobs(port: Pick<MessagePort, 'postMessage'>, messages: IncomingMessage[], contentIds: number[]): void {
  messages.forEach((message, i) => {
    if (!message.envelope) return
    const { raw, bodyIsText } = message.source
    const text = message.parsed.text
    const source = bodyIsText
      ? fullSource({ raw, raw_body_is_text: 1, text: typeof text === 'string' || text === null ? text : Buffer.from(text.buffer, text.byteOffset, text.byteLength).toString('utf8') })
      : raw
    port.postMessage({ contentId: contentIds[i]!, raw: source, envelope: message.envelope } satisfies AuthJob)
  })
}
