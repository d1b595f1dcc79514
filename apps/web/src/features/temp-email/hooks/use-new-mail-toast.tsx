import type { MessageSummary } from '@tempbox/types'
import { useEffect, useRef, type RefObject } from 'react'
import { useTranslation } from 'react-i18next'
import { ToastAction } from '@tempbox/ui'
import { parseSender } from '../lib/format'
import { useMailArrivals } from './use-mail-arrivals'
import type { Notify } from './use-notify'

/**
 * A short toast for mail that arrives while the inbox is scrolled out of view (in view, the new row says it): who it
 * is from, and its code to copy when it has one. Mail already there when the inbox was first shown is not announced:
 * the list may still be loading then, so what counts is mail received after the address was first shown here.
 */
export function useNewMailToast(
  email: string | null,
  messages: readonly MessageSummary[] | undefined,
  inbox: RefObject<HTMLElement | null>,
  notify: Notify,
  onCopyCode: (code: string) => void,
): void {
  const { t } = useTranslation('email')
  const isInView = useRef(true)

  useEffect(() => {
    const element = inbox.current
    if (!element || typeof IntersectionObserver === 'undefined') return
    const observer = new IntersectionObserver(([entry]) => {
      if (entry) isInView.current = entry.isIntersecting
    })
    observer.observe(element)
    return () => observer.disconnect()
  }, [inbox])

  useMailArrivals(email, messages, (arrived, shownSince) => {
    const latest = arrived.reduce<MessageSummary | null>((top, m) => (!top || Number(m.id) > Number(top.id) ? m : top), null)
    if (!latest || isInView.current || Date.parse(latest.receivedAt) < shownSince) return
    const { name, address } = parseSender(latest.sender)
    const code = latest.verification.codes[0]
    notify({
      title: t('toast.newMailTitle', { sender: name ?? address }),
      description: latest.subject || t('noSubject'),
      action: code
        ? (
            <ToastAction altText={t('copyCode', { code })} onClick={() => onCopyCode(code)}>
              {t('copyCode', { code })}
            </ToastAction>
          )
        : undefined,
    })
  })
}
