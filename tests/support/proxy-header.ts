import { isIPv4 } from 'node:net'

const SIGNATURE = Buffer.from('\r\n\r\n\0\r\nQUIT\n', 'latin1')

/** A PROXY protocol v1 line as HAProxy's `send-proxy` writes it, for the client at `remoteAddress`. */
export function proxyV1(remoteAddress: string, remotePort = 40000, localAddress = isIPv4(remoteAddress) ? '10.0.0.2' : '2001:db8::2', localPort = 25): string {
  return `PROXY ${isIPv4(remoteAddress) ? 'TCP4' : 'TCP6'} ${remoteAddress} ${localAddress} ${remotePort} ${localPort}\r\n`
}

/**
 * A PROXY protocol v2 header as `send-proxy-v2` writes it: a TCP client over IPv4 or IPv6 (with optional TLVs), or
 * LOCAL / another family with a body of its own.
 */
export function proxyV2(options:
  | { remoteAddress: string; remotePort: number; localAddress: string; localPort: number; tlvs?: Buffer }
  | { command: 'LOCAL' | 'PROXY'; family?: number; body?: Buffer }): Buffer {
  if ('command' in options) {
    const body = options.body ?? Buffer.alloc(0)
    return Buffer.concat([SIGNATURE, Buffer.from([options.command === 'LOCAL' ? 0x20 : 0x21, options.family ?? 0x00]), u16(body.length), body])
  }
  const four = isIPv4(options.remoteAddress)
  const address = (ip: string) => (four ? Buffer.from(ip.split('.').map(Number)) : v6Bytes(ip))
  const body = Buffer.concat([address(options.remoteAddress), address(options.localAddress), u16(options.remotePort), u16(options.localPort), options.tlvs ?? Buffer.alloc(0)])
  return Buffer.concat([SIGNATURE, Buffer.from([0x21, four ? 0x11 : 0x21]), u16(body.length), body])
}

function u16(value: number): Buffer {
  const bytes = Buffer.alloc(2)
  bytes.writeUInt16BE(value)
  return bytes
}

function v6Bytes(ip: string): Buffer {
  const [head = '', tail = ''] = ip.split('::')
  const left = head ? head.split(':') : []
  const right = tail ? tail.split(':') : []
  const groups = ip.includes('::') ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right] : left
  return Buffer.concat(groups.map((g) => u16(parseInt(g, 16))))
}
