import type { AttachmentInfo } from '@tempbox/types'
import { Download, Paperclip } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { attachmentUrl } from '../api/message'
import { fileKind } from '../lib/attachment-kind'
import { formatBytes } from '../lib/format-bytes'

/**
 * The message's files, named as people say them ("PDF document, 13 KB"). Images the HTML shows in place (`cid:`,
 * which the server points at their download URL) are part of the mail, not listed again.
 */
export function AttachmentList({ address, id, attachments, html }: { address: string; id: string; attachments: AttachmentInfo[]; html: string | null }) {
  const { t, i18n } = useTranslation('email')
  const listed = attachments.filter((a) => !(a.contentId && html?.includes(`${attachmentUrl(address, id, a.index)}"`)))
  if (listed.length === 0) return null
  return (
    <div>
      <h4 className="mb-1 text-sm font-semibold text-slate-800 dark:text-slate-200">{t('viewer.attachments')}</h4>
      <ul className="space-y-1">
        {listed.map((a) => {
          const size = formatBytes(a.size, i18n.language)
          const { kind, format } = fileKind(a.contentType)
          return (
            <li key={a.index} className="flex flex-wrap items-center gap-x-2 text-sm">
              <Paperclip className="h-4 w-4 shrink-0 text-slate-500" aria-hidden />
              <a
                href={attachmentUrl(address, id, a.index)}
                download={a.filename}
                dir="auto"
                className="inline-flex min-w-0 items-center gap-1 break-all text-blue-700 underline hover:no-underline dark:text-blue-300"
                aria-label={t('viewer.download', { name: a.filename })}
              >
                <bdi>{a.filename}</bdi>
                <Download className="h-3 w-3 shrink-0" aria-hidden />
              </a>
              <span className="text-xs text-slate-600 dark:text-slate-400" title={a.contentType}>
                {t('viewer.fileSummary', { kind: t(`fileKind.${kind}`, { format }), size: t(`size.${size.unit}`, { n: size.value }) })}
              </span>
            </li>
          )
        })}
      </ul>
    </div>
  )
}
