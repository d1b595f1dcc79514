import type { Verification } from '@tempbox/types'
import { Copy, ExternalLink } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { smallButton } from './styles'

/** One-click copy of codes and open of verification links found in a message (issue 3). */
export function VerificationActions({ verification, onCopy }: { verification: Verification; onCopy: (code: string) => void }) {
  const { t } = useTranslation('email')
  if (verification.codes.length === 0 && verification.links.length === 0) return null
  return (
    <div className="flex flex-wrap items-center gap-2 px-3 pb-3 sm:px-4">
      {verification.codes.slice(0, 2).map((code, i) => (
        // The title is the sender's sentence the code came from, so a wrong pick shows itself before it is pasted.
        <button
          key={code}
          type="button"
          onClick={() => onCopy(code)}
          className={smallButton}
          title={verification.codeDetails?.[i]?.source || undefined}
        >
          {/* The name heard starts with the words seen ("Code 482913"), then says what a tap does. */}
          <span className="text-slate-500 dark:text-slate-400">{t('code')}</span>{' '}
          <span className="font-mono text-sm font-semibold tracking-wider">{code}</span>
          {' '}
          <span className="sr-only">({t('copy')})</span>
          <Copy className="h-3 w-3" aria-hidden />
        </button>
      ))}
      {verification.links.slice(0, 2).map((link) => (
        <a key={link.url} href={link.url} target="_blank" rel="noopener noreferrer" className={smallButton} title={link.url}>
          <ExternalLink className="h-3 w-3" aria-hidden />
          <span className="max-w-[14rem] truncate">{link.label || t('openLink')}</span>
          <span className="sr-only">{t('opensInNewTab')}</span>
        </a>
      ))}
    </div>
  )
}
