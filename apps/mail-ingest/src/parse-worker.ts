/**
 * Worker thread: parses raw messages so mailparser's CPU time stays off the SMTP thread, and hands the
 * result straight to the store worker over a dedicated channel.
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads'
// Not the package index: its storage, search and pg modules would cost this thread's isolate ~30 MB (issue 29).
import { toStoredSource } from '@tempbox/db/message-source'
import { parseMessage } from './parse-message.js'
import { deriveSearchCopy, deriveView } from './derive-view.js'
import type { ParseRequest, PipelineReply, StoreRequest } from './pipeline-messages.js'
import { asBuffer, movableMemory, signalReady } from './worker-rpc.js'

const { storePort, searchTextChars } = workerData as { storePort: MessagePort; searchTextChars: number }
/** From this length a text is handed to the store worker as bytes (shorter ones cost less to clone than to encode). */
const TEXT_AS_BYTES_CHARS = 16 * 1024

function asBytesIfLong<T extends string | Buffer | null>(value: T): T | Buffer {
  return typeof value === 'string' && value.length >= TEXT_AS_BYTES_CHARS ? Buffer.from(value) : value
}

// Each message goes on alone, as soon as it is parsed: the store worker commits it while the next is parsed (batched
// per turn, a whole turn's parsing waited, 0.73-0.83x the msg/s at load 2.5).
const parse = ({ id, raw, inboxIds, receivedAt, envelope, deliveries }: ParseRequest) => {
  const bytes = asBuffer(raw)
  parseMessage(bytes).then(
    // Split here, in parallel with the other parsers, so only the header block is stored when the body is the text. The
    // received bytes, a text read as bytes and the attachments move on to the store worker rather than being copied:
    // nothing here reads them again.
    (parsed) => {
      const source = toStoredSource(bytes, parsed.text, parsed.plainBodyStart)
      const derived = deriveView(parsed)
      const search = deriveSearchCopy(parsed, derived, searchTextChars)
      // A long decoded text or HTML goes on as its UTF-8 bytes, moved: posted as a string, the store worker (which
      // commits all mail, one batch at a time) paid for cloning it, 60–130 ms for 9 MB, and then for encoding it to bind it.
      const text = asBytesIfLong(parsed.text)
      const html = asBytesIfLong(parsed.html)
      const message = { inboxIds, receivedAt, envelope, deliveries, source, parsed: { ...parsed, text, html }, derived, search }
      const bodies = [text, html].filter((b) => Buffer.isBuffer(b))
      storePort.postMessage({ id, message } satisfies StoreRequest, movableMemory([bytes, ...bodies, ...parsed.attachments.map((a) => a.content)]))
    },
    (error: unknown) => parentPort!.postMessage({ id, ok: false, error: String(error) } satisfies PipelineReply),
  )
}
parentPort!.on('message', parse)
signalReady()
