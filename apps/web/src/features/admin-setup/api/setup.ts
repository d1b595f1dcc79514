import type { PromoteOwnerBody, PromoteOwnerResponse, SetupStatusResponse } from '@tempbox/types'
import useSWR from 'swr'
import { apiJson } from '../../../lib/api-client'

export const SETUP_STATUS_KEY = '/api/auth/setup'

export function useSetupStatus() {
  return useSWR<SetupStatusResponse>(SETUP_STATUS_KEY, { revalidateOnMount: true })
}

export const promoteOwner = (body: PromoteOwnerBody) => apiJson<PromoteOwnerResponse>('POST', '/api/auth/promote-owner', body)
