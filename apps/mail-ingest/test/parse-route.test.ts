import { describe, expect, it } from 'vitest'
import { parsesOnStore } from '../src/parse-route.js'

const mail = (head: string, body = 'Your code is 123456.\r\n') => Buffer.from(`From: a@sender.test\r\nTo: b@tempbox.test\r\nSubject: Hi\r\n${head}\r\n${body}`)

describe('which mail the store thread parses itself', () => {
  it('takes a small plain text: no Content-Type, or text/plain however written', () => {
    expect(parsesOnStore(mail(''), 16_384)).toBe(true)
    expect(parsesOnStore(mail('Content-Type: text/plain; charset=utf-8\r\n'), 16_384)).toBe(true)
    expect(parsesOnStore(mail('content-type:Text/Plain\r\n'), 16_384)).toBe(true)
    expect(parsesOnStore(mail('Content-Type:\r\n text/plain;\r\n charset="us-ascii"\r\n'), 16_384)).toBe(true)
  })

  it('leaves HTML and multipart mail to a parse worker, whatever its size', () => {
    expect(parsesOnStore(mail('Content-Type: text/html; charset=utf-8\r\n', '<p>Hi</p>\r\n'), 16_384)).toBe(false)
    // Lines ended by a bare LF, as some senders write them and mailparser still reads them.
    expect(parsesOnStore(Buffer.from('From: a@sender.test\nContent-Type: text/html\n\n<p>Hi</p>\n'), 16_384)).toBe(false)
    expect(parsesOnStore(mail('Content-Type: multipart/alternative; boundary="b"\r\n', '--b\r\n\r\nHi\r\n--b--\r\n'), 16_384)).toBe(false)
  })

  it('reads the header block only: a look-alike header or a Content-Type line in the body changes nothing', () => {
    expect(parsesOnStore(mail('X-Content-Type: text/html\r\n'), 16_384)).toBe(true)
    expect(parsesOnStore(mail('', 'Content-Type: text/html\r\n\r\n<p>quoted</p>\r\n'), 16_384)).toBe(true)
  })

  it('leaves a text over the size limit to a parse worker, and every message with a limit of 0', () => {
    const text = mail('', 'x'.repeat(20_000))
    expect(parsesOnStore(text, 16_384)).toBe(false)
    expect(parsesOnStore(text, text.length)).toBe(true)
    expect(parsesOnStore(mail(''), 0)).toBe(false)
  })
})
