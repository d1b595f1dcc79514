import type { MessageSummary } from '@tempbox/types'
import { useEffect, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { inBackground } from '../lib/background'
import { MAX_NOTIFICATIONS_AT_ONCE, playChime, primeSound, showMailNotification, useMailAlertPrefs } from '../lib/new-mail-alerts'
import { parseSender } from '../lib/format'

/**
 * Desktop notifications and the chime for mail that arrives after the inbox was first shown (not for what was there
 * already). Notifications only while the tab is in the background — in front, the reader sees the row appear; the
 * chime, chosen on purpose, plays either way. `onOpen` opens a message whose notification was clicked.
 */
export function useNewMailAlerts(email: string | null, messages: readonly MessageSummary[] | undefined, onOpen: (id: string) => void): void {
  const { t } = useTranslation('email')
  const desktop = useMailAlertPrefs((s) => s.desktop)
  const sound = useMailAlertPrefs((s) => s.sound)
  const newest = useRef<{ email: string | null; id: number } | null>(null)
  const onOpenRef = useRef(onOpen)
  onOpenRef.current = onOpen

  useEffect(() => {
    if (sound) primeSound()
  }, [sound])

  useEffect(() => {
    if (!messages) return
    const top = messages.reduce((max, m) => Math.max(max, Number(m.id)), 0)
    const seen = newest.current
    if (!seen || seen.email !== email) {
      newest.current = { email, id: top }
      return
    }
    if (top <= seen.id) return
    const arrived = messages.filter((m) => Number(m.id) > seen.id && !m.read)
    newest.current = { email, id: top }
    if (arrived.length === 0) return
    if (sound) playChime()
    if (!desktop || !inBackground()) return
    for (const message of arrived.slice(0, MAX_NOTIFICATIONS_AT_ONCE)) {
      const { name, address } = parseSender(message.sender)
      showMailNotification(t('alerts.newMailFrom', { sender: name ?? address }), message.subject || t('noSubject'), `tempbox-${message.id}`, () =>
        onOpenRef.current(message.id),
      )
    }
  }, [email, messages, desktop, sound, t])
}
