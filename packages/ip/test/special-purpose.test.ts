import { describe, expect, it } from 'vitest'
import { embeddedIpv4, parseIp, specialPurpose } from '../src/index.js'

/** The ranges an address is refused by: the one matched and, for an IPv4 address carried in IPv6, the carrier's. */
function rangesOf(address: string): string[] {
  const ip = parseIp(address)
  if (!ip) throw new Error(`not an IP: ${address}`)
  const found = specialPurpose(ip)
  return found ? [found.range, ...(found.carrier ? [found.carrier.range] : [])] : []
}

const F = 'ffff:ffff:ffff:ffff'

// [range, first or near-first inside, last or near-last inside, just below, just above] (null: no such address).
// Inside addresses are as close to the edge as the range allows before a more specific entry takes over.
const EDGES: [string, string, string, string | null, string | null][] = [
  ['0.0.0.0/8', '0.0.0.0', '0.255.255.255', null, '1.0.0.0'],
  ['10.0.0.0/8', '10.0.0.0', '10.255.255.255', '9.255.255.255', '11.0.0.0'],
  ['100.64.0.0/10', '100.64.0.0', '100.127.255.255', '100.63.255.255', '100.128.0.0'],
  ['127.0.0.0/8', '127.0.0.0', '127.255.255.255', '126.255.255.255', '128.0.0.0'],
  ['169.254.0.0/16', '169.254.0.0', '169.254.255.255', '169.253.255.255', '169.255.0.0'],
  ['172.16.0.0/12', '172.16.0.0', '172.31.255.255', '172.15.255.255', '172.32.0.0'],
  ['192.0.0.0/24', '192.0.0.0', '192.0.0.255', '191.255.255.255', '192.0.1.0'],
  ['192.0.2.0/24', '192.0.2.0', '192.0.2.255', '192.0.1.255', '192.0.3.0'],
  ['192.31.196.0/24', '192.31.196.0', '192.31.196.255', '192.31.195.255', '192.31.197.0'],
  ['192.52.193.0/24', '192.52.193.0', '192.52.193.255', '192.52.192.255', '192.52.194.0'],
  ['192.88.99.0/24', '192.88.99.0', '192.88.99.255', '192.88.98.255', '192.88.100.0'],
  ['192.168.0.0/16', '192.168.0.0', '192.168.255.255', '192.167.255.255', '192.169.0.0'],
  ['192.175.48.0/24', '192.175.48.0', '192.175.48.255', '192.175.47.255', '192.175.49.0'],
  ['198.18.0.0/15', '198.18.0.0', '198.19.255.255', '198.17.255.255', '198.20.0.0'],
  ['198.51.100.0/24', '198.51.100.0', '198.51.100.255', '198.51.99.255', '198.51.101.0'],
  ['203.0.113.0/24', '203.0.113.0', '203.0.113.255', '203.0.112.255', '203.0.114.0'],
  ['224.0.0.0/4', '224.0.0.0', '239.255.255.255', '223.255.255.255', '240.0.0.0'],
  ['240.0.0.0/4', '240.0.0.0', '255.255.255.254', '239.255.255.255', '255.255.255.255'],
  ['255.255.255.255/32', '255.255.255.255', '255.255.255.255', '255.255.255.254', null],

  ['::/128', '::', '::', null, '::1'],
  ['::1/128', '::1', '::1', '::', '::2'],
  ['::/96', '::2', '::ffff:ffff', '::1', '::1:0:0'],
  ['::ffff:0:0/96', '::ffff:0:0', '::ffff:ffff:ffff', '::fffe:ffff:ffff', '::1:0:0:0'],
  ['64:ff9b::/96', '64:ff9b::', '64:ff9b::ffff:ffff', `64:ff9a:ffff:ffff:${F}`, '64:ff9b::1:0:0'],
  ['64:ff9b:1::/48', '64:ff9b:1::', `64:ff9b:1:ffff:${F}`, `64:ff9b:0:ffff:${F}`, '64:ff9b:2::'],
  ['100::/64', '100::', `100::${F}`, `ff:ffff:ffff:ffff:${F}`, '100:0:0:1::'],
  ['2001::/23', '2001:1::', `2001:1ff:ffff:ffff:${F}`, `2000:ffff:ffff:ffff:${F}`, '2001:200::'],
  ['2001::/32', '2001::', `2001:0:ffff:ffff:${F}`, `2000:ffff:ffff:ffff:${F}`, '2001:1::'],
  ['2001:db8::/32', '2001:db8::', `2001:db8:ffff:ffff:${F}`, `2001:db7:ffff:ffff:${F}`, '2001:db9::'],
  ['2002::/16', '2002::', `2002:ffff:ffff:ffff:${F}`, `2001:ffff:ffff:ffff:${F}`, '2003::'],
  ['2620:4f:8000::/48', '2620:4f:8000::', `2620:4f:8000:ffff:${F}`, `2620:4f:7fff:ffff:${F}`, '2620:4f:8001::'],
  ['3fff::/20', '3fff::', `3fff:fff:ffff:ffff:${F}`, `3ffe:ffff:ffff:ffff:${F}`, '3fff:1000::'],
  ['5f00::/16', '5f00::', `5f00:ffff:ffff:ffff:${F}`, `5eff:ffff:ffff:ffff:${F}`, '5f01::'],
  ['fc00::/7', 'fc00::', `fdff:ffff:ffff:ffff:${F}`, `fbff:ffff:ffff:ffff:${F}`, 'fe00::'],
  ['fe80::/10', 'fe80::', `febf:ffff:ffff:ffff:${F}`, `fe7f:ffff:ffff:ffff:${F}`, 'fec0::'],
  ['fec0::/10', 'fec0::', `feff:ffff:ffff:ffff:${F}`, `febf:ffff:ffff:ffff:${F}`, 'ff00::'],
  ['ff00::/8', 'ff00::', `ffff:ffff:ffff:ffff:${F}`, `feff:ffff:ffff:ffff:${F}`, null],
]

describe('specialPurpose: every IANA special-purpose range, on both sides of each edge', () => {
  it.each(EDGES)('%s holds %s and %s, not %s nor %s', (range, first, last, below, above) => {
    expect(rangesOf(first)).toContain(range)
    expect(rangesOf(last)).toContain(range)
    if (below) expect(rangesOf(below)).not.toContain(range)
    if (above) expect(rangesOf(above)).not.toContain(range)
  })

  it('answers null for ordinary public addresses, those just outside the ranges among them', () => {
    const publicOnes = ['1.0.0.0', '8.8.8.8', '9.255.255.255', '11.0.0.0', '100.128.0.0', '172.32.0.0', '192.0.1.0', '192.88.100.0',
      '198.20.0.0', '223.255.255.255', '2000::', `2000:ffff:ffff:ffff:${F}`, '2001:200::', '2001:db9::',
      '2001:ffff::1', '2003::', '2606:4700:4700::1111', '2620:4f:8001::', '3fff:1000::', `3fff:ffff:ffff:ffff:${F}`]
    for (const address of publicOnes) expect([address, specialPurpose(parseIp(address)!)]).toEqual([address, null])
  })

  it('refuses IPv6 outside 2000::/3 that no entry names: it is reserved, not global unicast', () => {
    for (const address of [`1fff:ffff:ffff:ffff:${F}`, '4000::', '5eff::1', '::1:0:0', '::fffe:1.2.3.4', '::ffff:0:8.8.8.8', 'e000::']) {
      expect([address, specialPurpose(parseIp(address)!)?.range]).toEqual([address, 'outside 2000::/3'])
    }
  })

  it('names the registry entry and what it is for, the most specific one first', () => {
    expect(specialPurpose(parseIp('127.0.0.1')!)).toEqual({ range: '127.0.0.0/8', name: 'loopback' })
    expect(specialPurpose(parseIp('255.255.255.255')!)).toEqual({ range: '255.255.255.255/32', name: 'limited broadcast' })
    expect(specialPurpose(parseIp('::1')!)).toEqual({ range: '::1/128', name: 'loopback' })
    expect(specialPurpose(parseIp('fec0::1')!)).toEqual({ range: 'fec0::/10', name: 'deprecated site-local' })
  })
})

describe('an IPv4 address carried in IPv6 is judged as that IPv4 address', () => {
  it.each([
    ['::ffff:7f00:1', '::ffff:0:0/96', 'IPv4-mapped', '127.0.0.1', '127.0.0.0/8'],
    ['::ffff:a9fe:a9fe', '::ffff:0:0/96', 'IPv4-mapped', '169.254.169.254', '169.254.0.0/16'],
    ['64:ff9b::7f00:1', '64:ff9b::/96', 'NAT64', '127.0.0.1', '127.0.0.0/8'],
    ['64:ff9b::a00:1', '64:ff9b::/96', 'NAT64', '10.0.0.1', '10.0.0.0/8'],
    ['64:ff9b::c058:6301', '64:ff9b::/96', 'NAT64', '192.88.99.1', '192.88.99.0/24'],
    ['2002:7f00:1::', '2002::/16', '6to4', '127.0.0.1', '127.0.0.0/8'],
    ['2002:a9fe:a9fe::1', '2002::/16', '6to4', '169.254.169.254', '169.254.0.0/16'],
    ['2002:c0a8:101:1::1', '2002::/16', '6to4', '192.168.1.1', '192.168.0.0/16'],
    // RFC 4380's example: server 65.54.227.120, client 192.0.2.45 (stored inverted as 3fff:fdd2).
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', '2001::/32', 'Teredo', '192.0.2.45', '192.0.2.0/24'],
    ['2001:0:7f00:1::ffff:ffff', '2001::/32', 'Teredo', '127.0.0.1', '127.0.0.0/8'],
  ])('%s: %s (%s) of %s, in %s', (address, carrierRange, carrierName, ipv4, range) => {
    expect(specialPurpose(parseIp(address)!)).toEqual({ range, name: expect.any(String), carrier: { range: carrierRange, name: carrierName, ipv4 } })
  })

  it('lets a public IPv4 address through IPv4-mapped, NAT64 and 6to4; Teredo is refused whatever it carries', () => {
    for (const address of ['::ffff:808:808', '64:ff9b::808:808', '64:ff9b::5db8:d822', '2002:808:808::', '2002:808:808:ffff:ffff:ffff:ffff:ffff']) {
      expect([address, specialPurpose(parseIp(address)!)]).toEqual([address, null])
    }
    expect(specialPurpose(parseIp('2001:0:808:808::f7f7:f7f7')!)).toEqual({ range: '2001::/32', name: 'Teredo' })
  })

  it('reads the carried addresses: Teredo gives its server and its client', () => {
    expect(embeddedIpv4(parseIp('2001:0:4136:e378:8000:63bf:3fff:fdd2')!)).toEqual({ range: '2001::/32', name: 'Teredo', ipv4s: ['65.54.227.120', '192.0.2.45'] })
    expect(embeddedIpv4(parseIp('2002:cb00:7101::5')!)).toEqual({ range: '2002::/16', name: '6to4', ipv4s: ['203.0.113.1'] })
    expect(embeddedIpv4(parseIp('64:ff9b::192.0.2.33')!)).toEqual({ range: '64:ff9b::/96', name: 'NAT64', ipv4s: ['192.0.2.33'] })
    expect(embeddedIpv4(parseIp('2606:4700::1')!)).toBeNull()
    expect(embeddedIpv4(parseIp('8.8.8.8')!)).toBeNull()
  })
})
