import { describe, expect, it } from 'vitest'
import { MAX_V1_BYTES, MAX_V2_BYTES, opensProxyHeader, parseProxyHeader } from '../src/proxy-protocol/header.js'
import { proxyV2 } from '../../../tests/support/proxy-header.js'

const v1 = (line: string) => Buffer.from(line, 'latin1')

describe('PROXY protocol v1', () => {
  it('names the client and our end, and says where the SMTP bytes begin', () => {
    const bytes = v1('PROXY TCP4 198.51.100.7 10.0.0.2 40001 25\r\nEHLO')
    expect(parseProxyHeader(bytes)).toEqual({
      kind: 'header', length: bytes.length - 4, ends: { remoteAddress: '198.51.100.7', remotePort: 40001, localAddress: '10.0.0.2', localPort: 25 },
    })
    expect(parseProxyHeader(v1('PROXY TCP6 2001:db8::7 2001:db8::1 65535 0\r\n'))).toMatchObject({ ends: { remoteAddress: '2001:db8::7', remotePort: 65535, localPort: 0 } })
  })

  it('names no one for UNKNOWN (the connection\'s own address stands)', () => {
    expect(parseProxyHeader(v1('PROXY UNKNOWN ffff::1 ffff::2 1 2\r\n'))).toEqual({ kind: 'header', length: 35, ends: null })
  })

  it('waits for the rest of a header cut anywhere, but never past the longest line allowed', () => {
    const line = 'PROXY TCP4 198.51.100.7 10.0.0.2 40001 25\r\n'
    for (let n = 1; n < line.length; n++) expect(parseProxyHeader(v1(line.slice(0, n))).kind, line.slice(0, n)).toBe('incomplete')
    expect(parseProxyHeader(v1(`PROXY ${'1'.repeat(MAX_V1_BYTES - 7)}`)).kind).toBe('incomplete')
    expect(parseProxyHeader(v1(`PROXY ${'1'.repeat(MAX_V1_BYTES - 6)}`))).toEqual({ kind: 'invalid', reason: `the PROXY header line is longer than ${MAX_V1_BYTES} bytes` })
    // The specification's worst case fits (UNKNOWN with both addresses and ports at their longest).
    const longest = `PROXY UNKNOWN ${'ffff:'.repeat(7)}ffff ${'ffff:'.repeat(7)}ffff 65535 65535\r\n`
    expect(longest.length).toBe(MAX_V1_BYTES)
    expect(parseProxyHeader(v1(longest)).kind).toBe('header')
    expect(parseProxyHeader(v1(longest.replace('UNKNOWN', 'TCP6'))).kind).toBe('header')
  })

  it('refuses what is not a well-formed header', () => {
    for (const [line, reason] of [
      ['EHLO client.example\r\n', 'the connection did not start with a PROXY protocol header'],
      ['proxy TCP4 198.51.100.7 10.0.0.2 1 25\r\n', 'the connection did not start with a PROXY protocol header'],
      ['PROXY TCP4 198.51.100.7 10.0.0.2 1 25\n', 'the PROXY header line does not end in CRLF'],
      ['PROXY TCP5 198.51.100.7 10.0.0.2 1 25\r\n', 'the PROXY header names an unknown protocol "TCP5"'],
      ['PROXY TCP4 2001:db8::7 10.0.0.2 1 25\r\n', 'the PROXY header\'s TCP4 addresses and ports are malformed'],
      ['PROXY TCP6 198.51.100.7 2001:db8::1 1 25\r\n', 'the PROXY header\'s TCP6 addresses and ports are malformed'],
      ['PROXY TCP4 198.51.100.300 10.0.0.2 1 25\r\n', 'the PROXY header\'s TCP4 addresses and ports are malformed'],
      ['PROXY TCP4 198.51.100.7 10.0.0.2 65536 25\r\n', 'the PROXY header\'s TCP4 addresses and ports are malformed'],
      ['PROXY TCP4 198.51.100.7 10.0.0.2 01 25\r\n', 'the PROXY header\'s TCP4 addresses and ports are malformed'],
      ['PROXY TCP4 198.51.100.7  10.0.0.2 1 25\r\n', 'the PROXY header\'s TCP4 addresses and ports are malformed'],
      ['PROXY TCP4 198.51.100.7 10.0.0.2 1 25 extra\r\n', 'the PROXY header\'s TCP4 addresses and ports are malformed'],
      ['PROXY TCP4 198.51.100.7\r\n', 'the PROXY header\'s TCP4 addresses and ports are malformed'],
    ] as const) expect(parseProxyHeader(v1(line)), line).toEqual({ kind: 'invalid', reason })
  })
})

describe('PROXY protocol v2', () => {
  it('names an IPv4 or IPv6 client, skipping TLVs, and says where the SMTP bytes begin', () => {
    const four = proxyV2({ remoteAddress: '198.51.100.7', remotePort: 40001, localAddress: '10.0.0.2', localPort: 25, tlvs: Buffer.from([0x04, 0, 2, 9, 9]) })
    expect(parseProxyHeader(Buffer.concat([four, Buffer.from('EHLO')]))).toEqual({
      kind: 'header', length: four.length, ends: { remoteAddress: '198.51.100.7', remotePort: 40001, localAddress: '10.0.0.2', localPort: 25 },
    })
    const six = proxyV2({ remoteAddress: '2001:db8:0:1::7', remotePort: 1, localAddress: '2001:db8::1', localPort: 2525 })
    expect(parseProxyHeader(six)).toEqual({ kind: 'header', length: 52, ends: { remoteAddress: '2001:db8:0:1::7', remotePort: 1, localAddress: '2001:db8::1', localPort: 2525 } })
  })

  it('names no one for LOCAL (a health check) and for UNSPEC or UNIX addresses', () => {
    expect(parseProxyHeader(proxyV2({ command: 'LOCAL' }))).toEqual({ kind: 'header', length: 16, ends: null })
    const unix = proxyV2({ command: 'PROXY', family: 0x31, body: Buffer.alloc(216) })
    expect(parseProxyHeader(unix)).toEqual({ kind: 'header', length: 232, ends: null })
    expect(parseProxyHeader(proxyV2({ command: 'PROXY', family: 0x00 }))).toEqual({ kind: 'header', length: 16, ends: null })
  })

  it('waits for a header cut anywhere, and refuses one declaring more than the specification\'s bound without reading it', () => {
    const whole = proxyV2({ remoteAddress: '198.51.100.7', remotePort: 1, localAddress: '10.0.0.2', localPort: 25 })
    for (let n = 1; n < whole.length; n++) expect(parseProxyHeader(whole.subarray(0, n)).kind, String(n)).toBe('incomplete')
    const huge = proxyV2({ remoteAddress: '198.51.100.7', remotePort: 1, localAddress: '10.0.0.2', localPort: 25, tlvs: Buffer.alloc(60_000) })
    expect(parseProxyHeader(huge.subarray(0, 16))).toEqual({ kind: 'invalid', reason: `the PROXY header is longer than ${MAX_V2_BYTES} bytes (${huge.length})` })
  })

  it('refuses unknown versions, commands, families and transports, and addresses that do not fit', () => {
    const good = proxyV2({ remoteAddress: '198.51.100.7', remotePort: 1, localAddress: '10.0.0.2', localPort: 25 })
    const patched = (offset: number, byte: number) => Buffer.from(good).fill(byte, offset, offset + 1)
    expect(parseProxyHeader(patched(12, 0x11))).toEqual({ kind: 'invalid', reason: 'the PROXY header has an unknown version 1' })
    expect(parseProxyHeader(patched(12, 0x22))).toEqual({ kind: 'invalid', reason: 'the PROXY header has an unknown command 2' })
    expect(parseProxyHeader(patched(13, 0x41))).toEqual({ kind: 'invalid', reason: 'the PROXY header has an unknown address family 4' })
    expect(parseProxyHeader(patched(13, 0x12))).toEqual({ kind: 'invalid', reason: 'the PROXY header names a transport other than TCP' })
    expect(parseProxyHeader(patched(13, 0x21))).toEqual({ kind: 'invalid', reason: 'the PROXY header is too short for its addresses' })
  })
})

describe('opensProxyHeader', () => {
  it('recognises the whole opening of either version, and nothing SMTP', () => {
    expect(opensProxyHeader(v1('PROXY TCP4 1.2.3.4'))).toBe(true)
    expect(opensProxyHeader(proxyV2({ command: 'LOCAL' }))).toBe(true)
    for (const bytes of ['PROX', 'EHLO client\r\n', 'PROXYTCP4', '\r\n\r\n']) expect(opensProxyHeader(v1(bytes)), bytes).toBe(false)
  })
})
