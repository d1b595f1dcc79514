import { useEffect, useMemo, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { attachmentUrl } from '../api/message'
import { fitMailToFrame, MIN_FRAME_HEIGHT_PX } from '../lib/fit-mail'
import { buildMailDocument } from '../lib/mail-document'

/**
 * The HTML body in a sandboxed frame. Without allow-scripts nothing in the mail ever runs (the CSP meta inside says
 * the same); allow-same-origin only lets this page read the frame's layout, to size the frame to the mail and fit a
 * 600-px mail into a phone's width. allow-popups lets the mail's links open in a new, unsandboxed tab.
 */
export function MailFrame({ html, address, id, showRemote }: { html: string; address: string; id: string; showRemote: boolean }) {
  const { t } = useTranslation('email')
  const ref = useRef<HTMLIFrameElement>(null)
  const [height, setHeight] = useState(MIN_FRAME_HEIGHT_PX)
  const srcDoc = useMemo(() => {
    // The folder of this message's attachments (the trailing `/` makes the CSP match the paths below it).
    const attachments = new URL(attachmentUrl(address, id, 0).replace(/0$/, ''), window.location.origin).href
    return buildMailDocument(html, { attachments, showRemote })
  }, [html, address, id, showRemote])

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
  }, [srcDoc])

  return (
    <iframe
      ref={ref}
      title={t('viewer.frameTitle')}
      sandbox="allow-same-origin allow-popups allow-popups-to-escape-sandbox"
      referrerPolicy="no-referrer"
      srcDoc={srcDoc}
      // Plus its two 1-px borders (the box includes them).
      height={height + 2}
      className="block w-full rounded-md border border-slate-200 bg-white dark:border-slate-700"
    />
  )
}
