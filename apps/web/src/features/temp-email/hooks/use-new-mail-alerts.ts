import type { MessageSummary } from '@tempbox/types'
import { useEffect, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { inBackground } from '../lib/background'
import { MAX_NOTIFICATIONS_AT_ONCE, playChime, primeSound, showMailNotification, useMailAlertPrefs } from '../lib/new-mail-alerts'
import { parseSender } from '../lib/format'
import { useMailArrivals } from './use-mail-arrivals'

/**
 * Desktop notifications and the chime for mail that arrives after the inbox was first shown (not for what was there
 * already). Notifications only while the tab is in the background — in front, the reader sees the row appear; the
 * chime, chosen on purpose, plays either way. `onOpen` opens a message whose notification was clicked.
 */
export function useNewMailAlerts(email: string | null, messages: readonly MessageSummary[] | undefined, onOpen: (id: string) => void): void {
  const { t } = useTranslation('email')
  const desktop = useMailAlertPrefs((s) => s.desktop)
  const sound = useMailAlertPrefs((s) => s.sound)
  const onOpenRef = useRef(onOpen)
  onOpenRef.current = onOpen

  useEffect(() => {
    if (sound) primeSound()
  }, [sound])

  useMailArrivals(email, messages, (arrived) => {
    const unread = arrived.filter((m) => !m.read)
    if (unread.length === 0) return
    if (sound) playChime()
    if (!desktop || !inBackground()) return
    for (const message of unread.slice(0, MAX_NOTIFICATIONS_AT_ONCE)) {
      const { name, address } = parseSender(message.sender)
      showMailNotification(t('toast.newMailTitle', { sender: name ?? address }), message.subject || t('noSubject'), `tempbox-${message.id}`, () =>
        onOpenRef.current(message.id),
      )
    }
  })
}
