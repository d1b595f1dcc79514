import { describe, expect, it } from 'vitest'
import { clientKey, isPrivateIp, parseIp } from '../src/index.js'

describe('parseIp', () => {
  it('reads IPv4 with its uint32 value and drops leading zeros from the written form', () => {
    expect(parseIp('1.2.3.4')).toEqual({ ip: '1.2.3.4', version: 4, value: 0x01020304n })
    expect(parseIp('255.255.255.255')).toEqual({ ip: '255.255.255.255', version: 4, value: 0xffffffffn })
    expect(parseIp(' 8.8.4.4 ')).toEqual({ ip: '8.8.4.4', version: 4, value: 0x08080404n })
  })

  it('turns an IPv4-mapped v6 address (any case) into the plain v4 one', () => {
    expect(parseIp('::ffff:203.0.113.9')).toEqual({ ip: '203.0.113.9', version: 4, value: 0xcb007109n })
    expect(parseIp('::FFFF:10.0.0.1')?.ip).toBe('10.0.0.1')
    expect(parseIp('::ffff:1.22.3.4')).toEqual({ ip: '1.22.3.4', version: 4, value: 0x01160304n })
    expect(parseIp('::ffff:1.2.3.44')).toEqual({ ip: '1.2.3.44', version: 4, value: 0x0102032cn })
    // Not the mapped prefix: stays v6, the v4 tail read into the low 32 bits.
    expect(parseIp('::fffe:1.2.3.4')).toEqual({ ip: '::fffe:102:304', version: 6, value: (0xfffen << 32n) | 0x01020304n })
    expect(parseIp('x::ffff:1.2.3.4')).toBeNull()
    expect(parseIp('::ffff:1.2.3.4x')).toBeNull()
  })

  it('reads IPv6 in brackets, with a zone, compressed or not, and writes it in RFC 5952 form', () => {
    expect(parseIp('[2001:DB8::1]')).toEqual({ ip: '2001:db8::1', version: 6, value: (0x20010db8n << 96n) | 1n })
    expect(parseIp('fe80::1%eth0')).toEqual({ ip: 'fe80::1', version: 6, value: (0xfe80n << 112n) | 1n })
    expect(parseIp('2001:0db8:0000:0000:0000:0000:0000:0001')?.ip).toBe('2001:db8::1')
    expect(parseIp('::')).toEqual({ ip: '::', version: 6, value: 0n })
    expect(parseIp('::1')).toEqual({ ip: '::1', version: 6, value: 1n })
    expect(parseIp('1::')).toEqual({ ip: '1::', version: 6, value: 1n << 112n })
    expect(parseIp('1:2:3:4:5:6:7:8')).toEqual({ ip: '1:2:3:4:5:6:7:8', version: 6, value: 0x00010002000300040005000600070008n })
    // The longest run of zeros is the one collapsed; a single zero group is not; the first of equal runs wins.
    expect(parseIp('1:0:0:2:0:0:0:3')?.ip).toBe('1:0:0:2::3')
    expect(parseIp('1:0:2:3:4:5:6:7')?.ip).toBe('1:0:2:3:4:5:6:7')
    expect(parseIp('1:0:0:2:3:0:0:4')?.ip).toBe('1::2:3:0:0:4')
    expect(parseIp('0:0:1:2:3:4:5:6')?.ip).toBe('::1:2:3:4:5:6')
    expect(parseIp('1:2:3:4:5:6:0:0')?.ip).toBe('1:2:3:4:5:6::')
  })

  it('reads a v6 address whose last 32 bits are written as IPv4', () => {
    expect(parseIp('64:ff9b::192.0.2.33')).toEqual({ ip: '64:ff9b::c000:221', version: 6, value: (0x64ff9bn << 96n) | 0xc0000221n })
    expect(parseIp('1:2:3:4:5:6:7.8.9.10')?.ip).toBe('1:2:3:4:5:6:708:90a')
  })

  it('answers null for text that is not an IP', () => {
    for (const input of ['', 'localhost', '1.2.3', '1.2.3.256', '12345::abcde', '[::1', '1.2.3.4]', 'x::1]', '::ffff:'] as const) expect(parseIp(input)).toBeNull()
  })
})

describe('isPrivateIp', () => {
  it('knows the ranges that never reach the public internet, at their edges', () => {
    const yes = ['0.0.0.1', '10.255.255.255', '100.64.0.0', '100.127.255.255', '127.0.0.1', '169.254.1.1', '172.16.0.0', '172.31.255.255',
      '192.0.0.8', '192.0.2.1', '192.168.1.1', '198.18.0.0', '198.19.255.255', '198.51.100.7', '203.0.113.200', '224.0.0.1', '255.255.255.255',
      '::', '::1', 'fc00::1', 'fdff::1', 'fe80::1', 'febf::1', 'ff02::1', '2001:db8::1', '100::1']
    const no = ['1.1.1.1', '9.255.255.255', '11.0.0.0', '100.63.255.255', '100.128.0.0', '172.15.255.255', '172.32.0.0', '192.0.1.1',
      '192.169.0.0', '198.17.255.255', '198.20.0.0', '223.255.255.255', '2606:4700::1', 'fec0::1', '2001:db9::1', '100:0:0:1::1', '::2']
    for (const ip of yes) expect([ip, isPrivateIp(parseIp(ip)!)]).toEqual([ip, true])
    for (const ip of no) expect([ip, isPrivateIp(parseIp(ip)!)]).toEqual([ip, false])
  })
})

describe('clientKey', () => {
  it('counts an IPv4 address alone, an IPv6 address by its /64, and keeps unparsable text as it is', () => {
    expect(clientKey('::ffff:192.0.2.1')).toBe('192.0.2.1')
    expect(clientKey('2001:db8:1:2:aaaa::1')).toBe('20010db800010002::/64')
    expect(clientKey('2001:db8:1:2:bbbb::9')).toBe(clientKey('2001:db8:1:2:aaaa::1'))
    expect(clientKey('2001:db8:1:3::1')).not.toBe(clientKey('2001:db8:1:2::1'))
    expect(clientKey('not an ip')).toBe('not an ip')
  })
})
