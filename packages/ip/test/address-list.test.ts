import { describe, expect, it } from 'vitest'
import { parseAddressList } from '../src/index.js'

describe('parseAddressList', () => {
  it('matches single addresses and CIDR ranges of both families, as a dual-stack socket reports them', () => {
    const { list, invalid } = parseAddressList('10.1.0.0/16, 192.0.2.7 2001:db8:5::/48,::1')
    expect(invalid).toEqual([])
    expect(list.entries).toEqual(['10.1.0.0/16', '192.0.2.7', '2001:db8:5::/48', '::1'])
    for (const ip of ['10.1.0.1', '10.1.255.255', '::ffff:10.1.2.3', '192.0.2.7', '2001:db8:5:ffff::1', '::1']) expect(list.includes(ip), ip).toBe(true)
    for (const ip of ['10.2.0.1', '192.0.2.8', '2001:db8:6::1', '::2', 'not-an-ip', '']) expect(list.includes(ip), ip).toBe(false)
  })

  it('reads a range written with host bits set as the network it lies in, and /0 as everything of its family', () => {
    expect(parseAddressList('172.30.89.2/24').list.includes('172.30.89.200')).toBe(true)
    const all4 = parseAddressList('0.0.0.0/0').list
    expect([all4.includes('203.0.113.1'), all4.includes('2001:db8::1')]).toEqual([true, false])
  })

  it('names every entry that is no address or range', () => {
    expect(parseAddressList('10.0.0.0/33, 10.0.0.1/, ::/129, example.com, 10.0.0.0/8/8, 1.2.3.4/x, 10.0.0.0/-1, 300.1.1.1').invalid)
      .toEqual(['10.0.0.0/33', '10.0.0.1/', '::/129', 'example.com', '10.0.0.0/8/8', '1.2.3.4/x', '10.0.0.0/-1', '300.1.1.1'])
    expect(parseAddressList('  ').list.entries).toEqual([])
  })
})
