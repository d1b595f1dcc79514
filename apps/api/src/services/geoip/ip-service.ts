import type { IpInfo } from '@tempbox/types'
import { AppError } from '../../errors.js'
import type { GeoipService } from './geoip-service.js'

/** Location and network of an address someone typed (or the caller's own). Nothing here is logged or stored. */
export async function lookupIp(geoip: GeoipService, input: string): Promise<IpInfo> {
  const info = await geoip.lookup(input)
  if (!info) {
    throw new AppError('invalid_ip', `"${input.slice(0, 64)}" is not an IP address. Enter an IPv4 address like 8.8.8.8 or an IPv6 address like 2001:4860:4860::8888.`, {
      ip: 'Not a valid IPv4 or IPv6 address.',
    })
  }
  return info
}
