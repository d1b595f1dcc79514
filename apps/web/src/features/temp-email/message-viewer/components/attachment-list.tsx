import type { FullMessage } from '@tempbox/types'
import { Download, Paperclip } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { attachmentUrl } from '../api/message'
import { fileKind } from '../lib/attachment-kind'
import { formatBytes } from '../lib/format-bytes'
import { isolateFileType } from '../lib/isolate-file-type'

/**
 * The message's files, named as people say them ("PDF document, 13 KB"). Images the HTML shows in place (`cid:`,
 * which the server points at their download URL) are part of the mail, not listed again. The server lists the first
 * ones only (its MESSAGE_VIEW_MAX_ATTACHMENTS); when there are more, a note under the list says how many and points at
 * the .eml download, which holds them all.
 */
export function AttachmentList({ address, id, message }: { address: string; id: string; message: Pick<FullMessage, 'attachments' | 'attachmentCount' | 'attachmentsTruncated' | 'html'> }) {
  const { t, i18n } = useTranslation('email')
  const { attachments, html } = message
  const listed = attachments.filter((a) => !(a.contentId && html?.includes(`${attachmentUrl(address, id, a.index)}"`)))
  const truncated = message.attachmentsTruncated === true
  if (listed.length === 0 && !truncated) return null
  const number = new Intl.NumberFormat(i18n.language)
  return (
    <div>
      <h4 className="mb-1 text-sm font-semibold text-slate-800 dark:text-slate-200">{t('viewer.attachments')}</h4>
      {listed.length > 0 && (
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
      )}
      {truncated && (
        <p role="note" className="mt-1 text-sm text-slate-700 dark:text-slate-300">
          {isolateFileType(
            t('viewer.attachmentsTruncated', {
              shown: number.format(attachments.length),
              total: number.format(Math.max(message.attachmentCount ?? 0, attachments.length)),
            }),
          )}
        </p>
      )}
    </div>
  )
}
