import { readFileSync } from 'node:fs'
import { createRequire, Module } from 'node:module'
import { dirname, join } from 'node:path'
import { Writable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { random } from '../../../tests/support/seeded-random.js'

/**
 * Our pnpm patches to smtp-server's DATA scan and mailsplit's line scan replace a loop over every byte with indexOf.
 * Here each patched module runs beside the same module with the patch taken back out (rebuilt from the installed
 * file and patches/*.patch, so the reference is exactly the upstream code), on the same random inputs cut into the
 * same random chunks, and both must emit the same thing.
 */
const REPO_ROOT = join(dirname(new URL(import.meta.url).pathname), '../../..')
const require = createRequire(import.meta.url)

/** The installed (patched) file's text with the hunks of `patchFile` for `path` turned back into the original lines. */
function unpatchedSource(installed: string, patchFile: string, path: string): string {
  const patch = readFileSync(join(REPO_ROOT, 'patches', patchFile), 'utf8')
  const section = patch.split(/^diff --git /m).find((s) => s.startsWith(`a/${path} `))
  if (!section) throw new Error(`${patchFile} has no hunk for ${path}`)
  let source = readFileSync(installed, 'utf8')
  for (const hunk of section.split(/^@@[^\n]*\n/m).slice(1)) {
    const lines = hunk.replace(/\n$/, '').split('\n').filter((l) => !l.startsWith('\\'))
    const patched = lines.filter((l) => !l.startsWith('-')).map((l) => l.slice(1)).join('\n')
    const original = lines.filter((l) => !l.startsWith('+')).map((l) => l.slice(1)).join('\n')
    if (!source.includes(patched)) throw new Error(`the installed ${path} does not hold the patched lines: is the patch applied?`)
    source = source.replace(patched, original)
  }
  return source
}

/** Compiles `source` as if it were the file at `filename`, so its relative requires resolve as the original's do. */
function loadAs<T>(filename: string, source: string): T {
  const mod = new Module(filename) as Module & { _compile: (code: string, file: string) => void; paths: string[] }
  mod.filename = filename
  mod.paths = (Module as unknown as { _nodeModulePaths: (dir: string) => string[] })._nodeModulePaths(dirname(filename))
  mod._compile(source, filename)
  return mod.exports as T
}

const pick = <T>(next: () => number, list: readonly T[]): T => list[Math.floor(next() * list.length)]!

/** Cuts `bytes` into 1–4 chunks at random places (a cut may fall inside a line end or a terminator). */
function chunks(next: () => number, bytes: Buffer): Buffer[] {
  const cuts = Array.from({ length: Math.floor(next() * 4) }, () => Math.floor(next() * (bytes.length + 1))).sort((a, b) => a - b)
  return [0, ...cuts, bytes.length].slice(1).map((end, i, ends) => bytes.subarray(i === 0 ? 0 : ends[i - 1], end))
}

interface SmtpStreamLike extends Writable {
  /** No callback for a last line flushed at the end of the input. */
  oncommand: (command: Buffer, callback?: () => void) => void
  startDataMode: (maxBytes?: number) => NodeJS.ReadableStream
  continue: () => void
}
type SmtpStreamCtor = new () => SmtpStreamLike

/** What the SMTP stream makes of one connection's bytes in DATA mode: the unescaped message, then the commands after it. */
async function runSmtpStream(Ctor: SmtpStreamCtor, pieces: Buffer[]): Promise<string> {
  const stream = new Ctor()
  const out: string[] = []
  stream.oncommand = (command, callback) => {
    out.push(`command:${command.toString('latin1')}`)
    callback?.()
  }
  const data = stream.startDataMode()
  const body: Buffer[] = []
  data.on('data', (chunk: Buffer) => body.push(chunk))
  data.on('end', () => {
    out.push(`data:${Buffer.concat(body).toString('latin1')}`)
    stream.continue()
  })
  for (const piece of pieces) await new Promise<void>((resolve) => stream.write(piece, () => resolve()))
  await new Promise<void>((resolve) => stream.end(() => resolve()))
  return JSON.stringify(out)
}

const DATA_PIECES = ['a', 'b', '.', '..', '\r', '\n', '\r\n', '\r\n.', '\r\n..', '\n.', '.\r\n', ' ', 'é', '\r\n.\r', '\r\n.x\r\n']

describe("smtp-server's DATA scan (patched) against upstream 3.21.6", () => {
  const installed = join(dirname(require.resolve('smtp-server')), 'smtp-stream.js')
  const Patched = (require(installed) as { SMTPStream: SmtpStreamCtor }).SMTPStream
  const Upstream = loadAs<{ SMTPStream: SmtpStreamCtor }>(installed, unpatchedSource(installed, 'smtp-server@3.21.6.patch', 'dist/cjs/smtp-stream.js')).SMTPStream

  it('the reference really is the unpatched loop', () => {
    expect(Upstream).not.toBe(Patched)
    const scan = (ctor: SmtpStreamCtor) => (ctor.prototype as { _feedDataStream: () => void })._feedDataStream.toString()
    expect(scan(Upstream)).toContain('for (i = 2; i < len - 2; i++)')
    expect(scan(Patched)).not.toContain('for (i = 2; i < len - 2; i++)')
  })

  it('emits the same message and the same following commands on 3,000 random payloads cut at random places', async () => {
    const next = random(20261123)
    for (let n = 0; n < 3_000; n++) {
      let payload = ''
      for (let length = Math.floor(next() * 30); length > 0; length--) payload += pick(next, DATA_PIECES)
      // Usually a proper end of DATA and a command after it; sometimes the connection just ends.
      const tail = next() < 0.85 ? '\r\n.\r\nQUIT\r\n' : ''
      const bytes = Buffer.from(payload + tail, 'utf8')
      const pieces = chunks(next, bytes)
      const expected = await runSmtpStream(Upstream, pieces)
      const actual = await runSmtpStream(Patched, pieces)
      if (actual !== expected) expect({ input: JSON.stringify(payload + tail), actual }).toEqual({ input: JSON.stringify(payload + tail), actual: expected })
    }
  }, 120_000)
})

type SplitterCtor = new () => NodeJS.ReadWriteStream

/** What mailsplit makes of a message: each node's headers and its body bytes, in order (chunk sizes aside). */
async function runSplitter(Ctor: SplitterCtor, pieces: Buffer[]): Promise<string> {
  const splitter = new Ctor()
  const out: string[] = []
  splitter.on('data', (item: { type: string; value?: Buffer; getHeaders?: () => Buffer }) => {
    if (item.type === 'node') out.push(`node:${item.getHeaders!().toString('latin1')}`)
    else {
      const text = (item.value ?? Buffer.alloc(0)).toString('latin1')
      // Body bytes may come in different slices; only their sum per part counts.
      if (out.length > 0 && out[out.length - 1]!.startsWith(`${item.type}:`)) out[out.length - 1] += text
      else out.push(`${item.type}:${text}`)
    }
  })
  const done = new Promise<void>((resolve, reject) => {
    splitter.on('end', () => resolve())
    splitter.on('error', reject)
  })
  for (const piece of pieces) splitter.write(piece)
  splitter.end()
  await done
  return JSON.stringify(out)
}

const EOL = ['\r\n', '\n']
const LINE_PIECES = ['text', ' ', '=', '--b1', '--b1--', '--b2', '--b2--', '', 'é', '.', 'Content-Type: text/plain', '\t folded']

function randomMessage(next: () => number): string {
  const eol = () => pick(next, EOL)
  const lines = (count: number) => Array.from({ length: count }, () => Array.from({ length: 1 + Math.floor(next() * 3) }, () => pick(next, LINE_PIECES)).join('')).join(eol())
  const headers = `Subject: s${eol()}Content-Type: multipart/mixed; boundary="b1"${eol()}X-Long: a${eol()} b${eol()}`
  const part = (boundary: string) =>
    `--${boundary}${eol()}Content-Type: ${next() < 0.3 ? 'multipart/alternative; boundary="b2"' : 'text/plain'}${eol()}${eol()}${lines(Math.floor(next() * 6))}${eol()}`
  return `${headers}${eol()}preamble${eol()}${part('b1')}${next() < 0.5 ? part('b2') + `--b2--${eol()}` : ''}${part('b1')}--b1--${eol()}${lines(Math.floor(next() * 3))}`
}

describe("mailsplit's line scan (patched) against upstream 5.4.19", () => {
  const fromMailparser = createRequire(require.resolve('mailparser'))
  const index = fromMailparser.resolve('@zone-eu/mailsplit')
  const installed = join(dirname(index), 'lib/message-splitter.js')
  const Patched = fromMailparser('@zone-eu/mailsplit').Splitter as SplitterCtor
  const Upstream = loadAs<SplitterCtor>(installed, unpatchedSource(installed, '@zone-eu__mailsplit@5.4.19.patch', 'lib/message-splitter.js'))

  it('the reference really is the unpatched loop', () => {
    expect(Upstream).not.toBe(Patched)
    expect(Upstream.toString()).toContain('if (chunk[i] !== 0x0a)')
    expect(Patched.toString()).not.toContain('if (chunk[i] !== 0x0a)')
  })

  it('splits 2,000 random multipart messages (LF and CRLF, folded headers, nested boundaries) the same, however they are cut', async () => {
    const next = random(5419)
    for (let n = 0; n < 2_000; n++) {
      const message = randomMessage(next)
      const pieces = chunks(next, Buffer.from(message, 'utf8'))
      const expected = await runSplitter(Upstream, pieces)
      const actual = await runSplitter(Patched, pieces)
      if (actual !== expected) expect({ input: JSON.stringify(message), actual }).toEqual({ input: JSON.stringify(message), actual: expected })
    }
  }, 120_000)
})
