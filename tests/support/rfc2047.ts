/**
 * RFC 2047 decoding of an unstructured header value (a Subject line), written from the RFC for the corpus test so the
 * subject ingest stores is checked against code it shares nothing with: not mailparser or libmime, and charsets
 * through the WHATWG TextDecoder (ICU) rather than iconv-lite.
 */

/** §2: `=?charset?encoding?encoded-text?=`; RFC 2231 §5 lets the charset carry `*language`, which names no bytes. */
const ENCODED_WORD = /=\?([^?\s*]+)(?:\*[^?\s]*)?\?([bq])\?([^?\s]*)\?=/gi

interface Word {
  charset: string
  bytes: Buffer
  /** As written, shown when its charset is one this decoder does not know (§6.3). */
  source: string
}

/** §4.2: `_` is a space, `=XX` a byte, anything else itself. */
function qBytes(text: string): Buffer {
  const out: number[] = []
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (c === '_') out.push(0x20)
    else if (c === '=' && /^[0-9a-f]{2}$/i.test(text.slice(i + 1, i + 3))) {
      out.push(parseInt(text.slice(i + 1, i + 3), 16))
      i += 2
    } else out.push(c.charCodeAt(0) & 0xff)
  }
  return Buffer.from(out)
}

function decoderFor(charset: string, fatal: boolean): TextDecoder | null {
  try {
    return new TextDecoder(charset, { fatal })
  } catch {
    return null
  }
}

/**
 * A run of adjacent encoded words of one charset. §5 wants each word to hold whole characters, and then each is
 * decoded alone (joining stateful ones such as ISO-2022-JP would put one escape sequence right after another). Senders
 * do split a multi-byte character across two words, though; when a word does not decode alone, the run's bytes are
 * decoded as one, which shows what was meant.
 */
function decodeRun(words: Word[]): string {
  const strict = decoderFor(words[0]!.charset, true)
  if (!strict) return words.map(unknownCharset).join('')
  try {
    return words.map((w) => strict.decode(w.bytes)).join('')
  } catch {
    return decoderFor(words[0]!.charset, false)!.decode(Buffer.concat(words.map((w) => w.bytes)))
  }
}

/**
 * §6.3 lets a reader show a word of a charset it does not know as written. Every charset named in mail is a superset
 * of ASCII but UTF-16/32 (which TextDecoder knows), so a word whose bytes are all ASCII is shown as that text.
 */
function unknownCharset(word: Word): string {
  return word.bytes.every((b) => b < 0x80) ? word.bytes.toString('latin1') : word.source
}

/**
 * The text a person should read for an unfolded unstructured header value: encoded words decoded, the white space
 * between two adjacent encoded words dropped (§6.2), everything else as written.
 */
export function decodeUnstructured(value: string): string {
  const parts: Array<string | Word> = []
  let last = 0
  for (const m of value.matchAll(ENCODED_WORD)) {
    const between = value.slice(last, m.index)
    const previous = parts[parts.length - 1]
    if (!(typeof previous === 'object' && /^[ \t]*$/.test(between)) && between !== '') parts.push(between)
    const [source, charset, encoding, text] = m as unknown as [string, string, string, string]
    const bytes = encoding.toLowerCase() === 'b' ? Buffer.from(text, 'base64') : qBytes(text)
    parts.push({ charset: charset.toLowerCase(), bytes, source })
    last = m.index + source.length
  }
  parts.push(value.slice(last))

  let out = ''
  let run: Word[] = []
  const flush = () => {
    if (run.length > 0) out += decodeRun(run)
    run = []
  }
  for (const part of parts) {
    if (typeof part === 'string') {
      flush()
      out += part
    } else {
      if (run.length > 0 && run[0]!.charset !== part.charset) flush()
      run.push(part)
    }
  }
  flush()
  return out
}
