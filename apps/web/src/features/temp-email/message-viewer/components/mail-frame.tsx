import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { messageUrl } from '../api/message'
import { fitMailToFrame, MIN_FRAME_HEIGHT_PX } from '../lib/fit-mail'

/** The mail as a document of its own, served under its own policy (remote images only once the reader asks). */
export function frameUrl(address: string, id: string, showRemote: boolean): string {
  return `${messageUrl(address, id)}/frame${showRemote ? '?images=true' : ''}`
}

/**
 * The HTML body in a sandboxed frame. The document comes from its own URL, not srcdoc, so it runs under the policy
 * the server sends with it (no script, images of ours only from this message's attachments) instead of inheriting
 * the app's. Without allow-scripts nothing in the mail ever runs; allow-same-origin only lets this page read the
 * frame's layout, to size the frame to the mail and fit a 600-px mail into a phone's width. allow-popups lets the
 * mail's links open in a new, unsandboxed tab.
 */
export function MailFrame({ address, id, showRemote }: { address: string; id: string; showRemote: boolean }) {
  const { t } = useTranslation('email')
  const ref = useRef<HTMLIFrameElement>(null)
  const [height, setHeight] = useState(MIN_FRAME_HEIGHT_PX)
  const src = frameUrl(address, id, showRemote)

  useEffect(() => {
    const frame = ref.current
    if (!frame) return
    let lastWidth = -1
    const fit = () => {
      const doc = frame.contentDocument
      if (!doc || doc.readyState === 'loading') return
      lastWidth = frame.clientWidth
      setHeight(fitMailToFrame(doc, frame.clientWidth))
    }
    // Images arriving late change the height: the frame's load event comes after them.
    frame.addEventListener('load', fit)
    // A turned phone or a resized window refits the mail (jsdom in unit tests has no ResizeObserver).
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(() => frame.clientWidth !== lastWidth && fit())
    observer?.observe(frame)
    fit()
    return () => {
      frame.removeEventListener('load', fit)
      observer?.disconnect()
    }
  }, [src])

  return (
    <iframe
      ref={ref}
      title={t('viewer.frameTitle')}
      sandbox="allow-same-origin allow-popups allow-popups-to-escape-sandbox"
      referrerPolicy="no-referrer"
      src={src}
      // Plus its two 1-px borders (the box includes them).
      height={height + 2}
      className="block w-full rounded-md border border-slate-200 bg-white dark:border-slate-700"
    />
  )
}
