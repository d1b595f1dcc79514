import { useCallback, useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { dropExpiredAddresses, useCurrentAddress } from '../../../stores/current-address'
import { isGone } from '../lib/is-gone'
import { useEmailStream } from './use-email-stream'
import type { Notify } from './use-notify'

interface AddressExpiryOptions {
  now: number
  /** The inbox's last load error: a 404 means the server no longer has the address. */
  inboxError: unknown
  isBurning: () => boolean
  onExpired: () => void
  notify: Notify
}

/** The current address's end: its time is up, its stream says so, or the server no longer knows it. */
export function useAddressExpiry({ now, inboxError, isBurning, onExpired, notify }: AddressExpiryOptions) {
  const { t } = useTranslation('email')
  const email = useCurrentAddress((s) => s.email)
  const expiresAt = useCurrentAddress((s) => s.expiresAt)
  const clearAddress = useCurrentAddress((s) => s.clear)
  const [expired, setExpired] = useState(false)

  useEffect(() => dropExpiredAddresses(now), [now])

  const expire = useCallback(() => {
    // Its stream ends while the read that burns it is answered: the burn, not expiry, is what the reader is told.
    if (isBurning()) return
    clearAddress()
    onExpired()
    setExpired(true)
    notify({ title: t('toast.expiredTitle'), description: t('expiredNotice'), variant: 'destructive' })
  }, [clearAddress, onExpired, notify, t, isBurning])

  useEmailStream(email, expire)

  useEffect(() => {
    if (email && isGone(inboxError)) expire()
  }, [email, inboxError, expire])

  useEffect(() => {
    if (email && expiresAt !== null && expiresAt <= now) expire()
  }, [email, expiresAt, now, expire])

  return { expired, setExpired, expire }
}
