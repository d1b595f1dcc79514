/** The messages a scenario sends, named by a header of their own so the stored copy can be found and compared. */
import { readFileSync } from 'node:fs'
import { buildHtmlMessage, buildMessage } from '../smtp-client.js'
import { realMailFiles } from '../stats.js'
import { REPO_ROOT, SCENARIOS, type Scenario } from './settings.js'

export const CRLF = Buffer.from('\r\n')

/** A corpus message as it goes on the wire (dot-stuffed, without the CRLF that the end-of-data line supplies) and as it must be stored. */
interface CorpusMessage {
  wire: Buffer
  stored: Buffer
}

/** SMTP carries lines ending CRLF and a final line end; a line starting with a dot is sent with one more. */
function loadCorpus(): CorpusMessage[] {
  return realMailFiles(REPO_ROOT).map((file) => {
    let text = readFileSync(file).toString('latin1').replace(/\r\n|\r|\n/g, '\r\n')
    if (!text.endsWith('\r\n')) text += '\r\n'
    const wire = text.slice(0, -2).replace(/(^|\r\n)\./g, '$1..')
    return { wire: Buffer.from(wire, 'latin1'), stored: Buffer.from(text, 'latin1') }
  })
}

export const CORPUS = SCENARIOS.some((s) => s.kind === 'corpus') ? loadCorpus() : []

/**
 * Every message begins with a header naming it, so the stored copy can be found and compared whatever the message's
 * own headers are (corpus messages share subjects, some have none).
 */
const ID_HEADER = 'X-Bench-Id: '

export function benchId(stored: Buffer): string | undefined {
  if (!stored.subarray(0, ID_HEADER.length).equals(Buffer.from(ID_HEADER))) return undefined
  const end = stored.indexOf(CRLF)
  return end < 0 ? undefined : stored.subarray(ID_HEADER.length, end).toString('latin1')
}

/** The bytes to send and the parts whose concatenation the store must hold. */
export function makeMessage(scenario: Scenario, id: string, i: number, to: string): { wire: Buffer; expected: Buffer[] } {
  const head = Buffer.from(`${ID_HEADER}${id}\r\n`)
  if (scenario.kind === 'corpus') {
    const message = CORPUS[i % CORPUS.length]!
    return { wire: Buffer.concat([head, message.wire]), expected: [head, message.stored] }
  }
  // Synthetic messages have no line starting with a dot, so what is stored is what is sent plus the final CRLF.
  const built = (scenario.kind === 'html' ? buildHtmlMessage : buildMessage)(scenario.bytes, 'load@sender.test', to, id)
  const wire = Buffer.concat([head, built])
  return { wire, expected: [wire, CRLF] }
}

export function equalsParts(stored: Buffer, parts: Buffer[]): boolean {
  if (stored.length !== parts.reduce((n, p) => n + p.length, 0)) return false
  let at = 0
  for (const part of parts) {
    if (!stored.subarray(at, at + part.length).equals(part)) return false
    at += part.length
  }
  return true
}
