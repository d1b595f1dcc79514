/**
 * Worker thread: parses the larger raw messages (see SMTP_PARSE_ON_STORE_MAX_BYTES) so mailparser's CPU time stays off
 * the SMTP thread and overlaps the commits, and hands the result straight to the store worker over a dedicated channel.
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads'
import { parseForStore } from './parse-for-store.js'
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
const parse = ({ id, raw, ...request }: ParseRequest) => {
  const bytes = asBuffer(raw)
  parseForStore(bytes, request, searchTextChars).then(
    // The received bytes, a text read as bytes and the attachments move on to the store worker rather than being
    // copied: nothing here reads them again.
    (parsed) => {
      // A long decoded text or HTML goes on as its UTF-8 bytes, moved: posted as a string, the store worker (which
      // commits all mail, one batch at a time) paid for cloning it, 60–130 ms for 9 MB, and then for encoding it to bind it.
      const text = asBytesIfLong(parsed.parsed.text)
      const html = asBytesIfLong(parsed.parsed.html)
      const message = { ...parsed, parsed: { ...parsed.parsed, text, html } }
      const bodies = [text, html].filter((b) => Buffer.isBuffer(b))
      storePort.postMessage({ id, message } satisfies StoreRequest, movableMemory([bytes, ...bodies, ...parsed.parsed.attachments.map((a) => a.content)]))
    },
    (error: unknown) => parentPort!.postMessage({ id, ok: false, error: String(error) } satisfies PipelineReply),
  )
}
parentPort!.on('message', parse)
signalReady()
