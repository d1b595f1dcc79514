import type { AddressLifetime, FullMessage, SetBurnBody } from '@tempbox/types'
import { apiJson } from '../../../lib/api-client'
import { inboxUrl } from './inbox'

/** Changes how the address ends: burned on first read, after N minutes, or (`{}`) its usual lifetime. */
export function setBurn(email: string, body: SetBurnBody): Promise<AddressLifetime> {
  return apiJson<AddressLifetime>('PUT', `${inboxUrl(email)}/burn`, body)
}

/** Keeps a saved address `days` from its creation; the server allows it only to the signed-in owner. */
export function keepSavedAddress(email: string, days: number): Promise<AddressLifetime> {
  return apiJson<AddressLifetime>('PUT', `${inboxUrl(email)}/expiry`, { days })
}

export function fetchMessage(email: string, id: string): Promise<FullMessage> {
  return apiJson<FullMessage>('GET', `${inboxUrl(email)}/messages/${encodeURIComponent(id)}`)
}
