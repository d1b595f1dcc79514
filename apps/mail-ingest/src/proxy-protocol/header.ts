import { isIPv4, isIPv6 } from 'node:net'
import { parseIp } from '@tempbox/ip'

/** The two ends a PROXY header names; null when it names none (v1 UNKNOWN, v2 LOCAL or a non-IP family). */
export interface ProxiedEnds {
  remoteAddress: string
  remotePort: number
  localAddress: string
  localPort: number
}

export type HeaderResult =
  | { kind: 'incomplete' }
  | { kind: 'invalid'; reason: string }
  | { kind: 'header'; length: number; ends: ProxiedEnds | null }

const V1_PREFIX = Buffer.from('PROXY ', 'latin1')
const V2_SIGNATURE = Buffer.from('\r\n\r\n\0\r\nQUIT\n', 'latin1')
/** The specification's longest v1 line, CRLF included ("PROXY TCP6" with two full IPv6 addresses and ports). */
export const MAX_V1_BYTES = 107
/**
 * v2 declares its own length (up to 64 KB of TLVs); the specification sizes a header to fit one minimal TCP segment,
 * so a longer one is refused rather than read.
 */
export const MAX_V2_BYTES = 536
const PORT = /^(?:0|[1-9]\d{0,4})$/

const invalid = (reason: string): HeaderResult => ({ kind: 'invalid', reason })
const INCOMPLETE: HeaderResult = { kind: 'incomplete' }

/** Whether `bytes` begin with as much of `prefix` as they hold. */
function startsLike(bytes: Buffer, prefix: Buffer): boolean {
  const n = Math.min(bytes.length, prefix.length)
  return bytes.subarray(0, n).equals(prefix.subarray(0, n))
}

/** Whether the first bytes a client sent are a whole PROXY header's opening (v1 "PROXY " or the v2 signature). */
export function opensProxyHeader(bytes: Buffer): boolean {
  return (bytes.length >= V1_PREFIX.length && startsLike(bytes, V1_PREFIX)) || (bytes.length >= V2_SIGNATURE.length && startsLike(bytes, V2_SIGNATURE))
}

/**
 * Reads a PROXY protocol header (v1 text or v2 binary) from the first bytes of a connection. Looks at no more than the
 * longest header allowed: 'incomplete' is only ever answered for fewer bytes than that, so the caller's buffer stays
 * bounded. The bytes after `length` belong to the SMTP session.
 */
export function parseProxyHeader(bytes: Buffer): HeaderResult {
  if (bytes.length === 0) return INCOMPLETE
  if (startsLike(bytes, V2_SIGNATURE)) return bytes.length < 16 ? INCOMPLETE : parseV2(bytes)
  if (startsLike(bytes, V1_PREFIX)) return bytes.length < V1_PREFIX.length ? INCOMPLETE : parseV1(bytes)
  return invalid('the connection did not start with a PROXY protocol header')
}

function parseV1(bytes: Buffer): HeaderResult {
  const lf = bytes.subarray(0, MAX_V1_BYTES).indexOf(0x0a)
  if (lf === -1) return bytes.length >= MAX_V1_BYTES ? invalid(`the PROXY header line is longer than ${MAX_V1_BYTES} bytes`) : INCOMPLETE
  if (bytes[lf - 1] !== 0x0d) return invalid('the PROXY header line does not end in CRLF')
  const fields = bytes.subarray(0, lf - 1).toString('latin1').split(' ')
  const [, protocol, source, destination, sourcePort, destinationPort] = fields
  if (protocol === 'UNKNOWN') return { kind: 'header', length: lf + 1, ends: null }
  const isFamily = protocol === 'TCP4' ? isIPv4 : protocol === 'TCP6' ? isIPv6 : null
  if (!isFamily) return invalid(`the PROXY header names an unknown protocol "${String(protocol).slice(0, 16)}"`)
  if (fields.length !== 6 || !isFamily(source!) || !isFamily(destination!) || !isPort(sourcePort!) || !isPort(destinationPort!)) {
    return invalid(`the PROXY header's ${protocol} addresses and ports are malformed`)
  }
  return { kind: 'header', length: lf + 1, ends: ends(source!, Number(sourcePort), destination!, Number(destinationPort)) }
}

function isPort(text: string): boolean {
  return PORT.test(text) && Number(text) <= 65535
}

function parseV2(bytes: Buffer): HeaderResult {
  const version = bytes[12]! >> 4
  const command = bytes[12]! & 0x0f
  if (version !== 2) return invalid(`the PROXY header has an unknown version ${version}`)
  if (command > 1) return invalid(`the PROXY header has an unknown command ${command}`)
  const length = 16 + bytes.readUInt16BE(14)
  if (length > MAX_V2_BYTES) return invalid(`the PROXY header is longer than ${MAX_V2_BYTES} bytes (${length})`)
  if (bytes.length < length) return INCOMPLETE
  // LOCAL: the proxy speaking for itself (a health check); its own address is the one to use.
  if (command === 0) return { kind: 'header', length, ends: null }
  const family = bytes[13]! >> 4
  const transport = bytes[13]! & 0x0f
  // UNSPEC and UNIX name no IP: the connection's own address stands, as the specification says.
  if (family === 0 || family === 3) return { kind: 'header', length, ends: null }
  if (family > 3) return invalid(`the PROXY header has an unknown address family ${family}`)
  if (transport !== 1) return invalid('the PROXY header names a transport other than TCP')
  const size = family === 1 ? 4 : 16
  if (length < 16 + 2 * size + 4) return invalid('the PROXY header is too short for its addresses')
  const address = (offset: number) => {
    const raw = bytes.subarray(offset, offset + size)
    const text = size === 4 ? raw.join('.') : Array.from({ length: 8 }, (_, i) => raw.readUInt16BE(i * 2).toString(16)).join(':')
    return parseIp(text)!.ip
  }
  const ports = 16 + 2 * size
  return { kind: 'header', length, ends: ends(address(16), bytes.readUInt16BE(ports), address(16 + size), bytes.readUInt16BE(ports + 2)) }
}

function ends(remoteAddress: string, remotePort: number, localAddress: string, localPort: number): ProxiedEnds {
  return { remoteAddress, remotePort, localAddress, localPort }
}
