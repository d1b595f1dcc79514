import type { AttachmentInfo } from '@tempbox/types'
import { Download, Paperclip } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { attachmentUrl } from '../api/message'
import { formatBytes } from '../lib/format-bytes'

export function AttachmentList({ address, id, attachments }: { address: string; id: string; attachments: AttachmentInfo[] }) {
  const { t } = useTranslation('email')
  if (attachments.length === 0) return null
  return (
    <div>
      <h4 className="mb-1 text-sm font-semibold text-slate-800 dark:text-slate-200">{t('viewer.attachments')}</h4>
      <ul className="space-y-1">
        {attachments.map((a) => {
          const size = formatBytes(a.size)
          return (
            <li key={a.index} className="flex flex-wrap items-center gap-2 text-sm">
              <Paperclip className="h-4 w-4 shrink-0 text-slate-500" aria-hidden />
              <a
                href={attachmentUrl(address, id, a.index)}
                download={a.filename}
                className="inline-flex min-w-0 items-center gap-1 break-all text-blue-700 underline hover:no-underline dark:text-blue-300"
                aria-label={t('viewer.download', { name: a.filename })}
              >
                {a.filename}
                <Download className="h-3 w-3 shrink-0" aria-hidden />
              </a>
              <span className="text-xs text-slate-500 dark:text-slate-400">
                {a.contentType} · {t(`size.${size.unit}`, { n: size.value })}
              </span>
            </li>
          )
        })}
      </ul>
    </div>
  )
}
