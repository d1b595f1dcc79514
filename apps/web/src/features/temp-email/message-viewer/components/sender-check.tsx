import type { MessageAuth } from '@tempbox/types'
import { Badge } from '@tempbox/ui'
import { CircleHelp, Loader2, ShieldAlert, ShieldCheck, ShieldQuestion } from 'lucide-react'
import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'

/** Protocol results we put into words; anything else (policy, …) is shown as the protocol names it. */
const KNOWN_RESULTS = new Set(['pass', 'fail', 'softfail', 'neutral', 'none', 'temperror', 'permerror'])

const LOOK = {
  pass: { variant: 'success', Icon: ShieldCheck },
  fail: { variant: 'destructive', Icon: ShieldAlert },
  none: { variant: 'secondary', Icon: ShieldQuestion },
  unknown: { variant: 'outline', Icon: CircleHelp },
  checking: { variant: 'outline', Icon: Loader2 },
} as const

/** Each verdict's badge and its explanation (keys under `senderCheck` in the email namespace). */
const TEXTS = {
  pass: ['verified', 'explainPass'],
  fail: ['failed', 'explainFail'],
  none: ['notVerified', 'explainNone'],
  unknown: ['unknown', 'explainUnknown'],
  checking: ['checking', 'explainChecking'],
} as const

/**
 * Who really sent the message, in plain words (issue 16): a badge for the verdict and, on request, each mechanism's
 * result and the Authentication-Results text. Nothing is shown for mail that was never checked.
 */
export function SenderCheck({ auth }: { auth: MessageAuth | null | undefined }) {
  const { t } = useTranslation('email')
  const [open, setOpen] = useState(false)
  const panelId = useId()
  if (!auth) return null
  const domain = auth.fromDomain ?? ''
  const { variant, Icon } = LOOK[auth.status]
  const [labelKey, explanationKey] = TEXTS[auth.status]
  const label = t(`senderCheck.${labelKey}`, { domain })
  const explanation = t(`senderCheck.${explanationKey}`, { domain })
  const result = (value: string) => (KNOWN_RESULTS.has(value) ? t(`senderCheck.${value}`) : value)
  const canOpen = auth.status !== 'checking'

  return (
    <div className="space-y-2" data-testid="sender-check">
      <div className="flex flex-wrap items-center gap-2">
        <Badge variant={variant} role="status" aria-live="polite" className="max-w-full whitespace-normal">
          <Icon className={'h-3.5 w-3.5 shrink-0' + (auth.status === 'checking' ? ' animate-spin motion-reduce:animate-none' : '')} aria-hidden />
          <span dir="auto" className="[overflow-wrap:anywhere]">{label}</span>
        </Badge>
        {canOpen && (
          <button
            type="button"
            aria-expanded={open}
            aria-controls={panelId}
            onClick={() => setOpen((o) => !o)}
            className="text-xs text-blue-700 underline underline-offset-2 hover:no-underline focus-visible:outline-2 focus-visible:outline-blue-600 dark:text-blue-300"
          >
            {t('senderCheck.details')}
          </button>
        )}
      </div>
      {open && canOpen && (
        <div id={panelId} className="space-y-2 rounded-md border border-slate-200 p-3 text-sm text-slate-700 dark:border-slate-700 dark:text-slate-200">
          <p>{explanation}</p>
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
            {auth.spf && (
              <>
                <dt className="font-medium">{t('senderCheck.spf')}</dt>
                <dd dir="auto" className="text-start [overflow-wrap:anywhere]">{result(auth.spf.result)} · {auth.spf.domain}</dd>
              </>
            )}
            <dt className="font-medium">{t('senderCheck.dkim')}</dt>
            <dd>
              {auth.dkim.length === 0 ? (
                t('senderCheck.noSignature')
              ) : (
                <ul>
                  {auth.dkim.map((d, i) => (
                    <li key={`${d.domain}-${i}`} dir="auto" className="text-start [overflow-wrap:anywhere]">
                      {result(d.result)} · {d.domain} ({t(d.aligned ? 'senderCheck.aligned' : 'senderCheck.notAligned')})
                    </li>
                  ))}
                </ul>
              )}
            </dd>
            {auth.dmarc && (
              <>
                <dt className="font-medium">{t('senderCheck.dmarc')}</dt>
                <dd dir="auto" className="text-start [overflow-wrap:anywhere]">{result(auth.dmarc.result)} · {auth.dmarc.domain}</dd>
              </>
            )}
            {auth.arc && (
              <>
                <dt className="font-medium">{t('senderCheck.arc')}</dt>
                <dd>{result(auth.arc.result)}</dd>
              </>
            )}
          </dl>
          {auth.authenticationResults && (
            <details>
              <summary className="cursor-pointer text-xs font-medium">{t('senderCheck.authenticationResults')}</summary>
              <pre dir="ltr" className="mt-1 max-h-48 overflow-auto whitespace-pre-wrap break-all rounded bg-slate-50 p-2 font-mono text-xs dark:bg-slate-800">
                {auth.authenticationResults}
              </pre>
            </details>
          )}
        </div>
      )}
    </div>
  )
}
