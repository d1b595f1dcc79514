import type { MessageSummary } from '@tempbox/types'
import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ToastAction } from '@tempbox/ui'
import { parseSender } from '../lib/format'
import { useMailArrivals } from './use-mail-arrivals'
import type { Notify } from './use-notify'

/**
 * New mail that arrives while the message list is out of view (in view, the new row says it): a short toast with who
 * it is from and its code to copy, and `unseen`, the count the "new mail ↓" pill by the address shows until the list
 * is seen. It watches `list`, the line where new rows appear, not the whole tool: at the address field on a phone the
 * list is below the fold.
 * Mail already there when the inbox was first shown is not announced: the list may still be loading then.
 */
export function useNewMailToast(
  email: string | null,
  messages: readonly MessageSummary[] | undefined,
  list: HTMLElement | null,
  notify: Notify,
  onCopyCode: (code: string) => void,
): { unseen: number } {
  const { t } = useTranslation('email')
  const isInView = useRef(true)
  const [unseen, setUnseen] = useState(0)

  useEffect(() => setUnseen(0), [email])

  useEffect(() => {
    if (!list || typeof IntersectionObserver === 'undefined') return
    // A line in the window's last 64 px is not "in view": a new row there would hardly be seen.
    const observer = new IntersectionObserver(
      ([entry]) => {
        if (!entry) return
        isInView.current = entry.isIntersecting
        if (entry.isIntersecting) setUnseen(0)
      },
      { rootMargin: '0px 0px -64px 0px' },
    )
    observer.observe(list)
    return () => observer.disconnect()
  }, [list])

  useMailArrivals(email, messages, (arrived, shownSince) => {
    const fresh = arrived.filter((m) => Date.parse(m.receivedAt) >= shownSince)
    const latest = fresh.reduce<MessageSummary | null>((top, m) => (!top || Number(m.id) > Number(top.id) ? m : top), null)
    if (!latest || isInView.current) return
    setUnseen((count) => count + fresh.length)
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

  return { unseen }
}
