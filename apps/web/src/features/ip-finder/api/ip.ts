import type { IpInfo } from '@tempbox/types'
import { apiJson } from '../../../lib/api-client'

/** The caller's own address when `ip` is empty. */
export function fetchIpInfo(ip?: string): Promise<IpInfo> {
  return apiJson<IpInfo>('GET', ip ? `/api/ip/${encodeURIComponent(ip)}` : '/api/ip')
}
