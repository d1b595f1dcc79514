import { useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import { buildMailDocument } from '../lib/mail-document'

/**
 * The HTML body in a sandboxed frame: no allow-scripts and no allow-same-origin, so nothing in the mail runs
 * or reaches our origin; allow-popups lets its links open in a new, unsandboxed tab.
 */
export function MailFrame({ html, showRemote }: { html: string; showRemote: boolean }) {
  const { t } = useTranslation('email')
  const srcDoc = useMemo(() => buildMailDocument(html, { origin: window.location.origin, showRemote }), [html, showRemote])
  return (
    <iframe
      title={t('viewer.frameTitle')}
      sandbox="allow-popups allow-popups-to-escape-sandbox"
      referrerPolicy="no-referrer"
      srcDoc={srcDoc}
      className="h-[28rem] w-full rounded-md border border-slate-200 bg-white dark:border-slate-700"
    />
  )
}
