import { Badge, Button, Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger, toast } from '@tempbox/ui'
import { Check, Copy, ExternalLink, KeyRound } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { PUBLIC_APIS, type PublicApi } from '../lib/public-apis'

/** Spec §4/§9: the copied icon shows for 2 seconds. */
export const COPIED_ICON_MS = 2000

function CopyButton({ text, label }: { text: string; label: string }) {
  const { t } = useTranslation('common')
  const [isCopied, setIsCopied] = useState(false)
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined)
  useEffect(() => () => clearTimeout(timer.current), [])

  async function copy() {
    try {
      await navigator.clipboard.writeText(text)
      setIsCopied(true)
      clearTimeout(timer.current)
      timer.current = setTimeout(() => setIsCopied(false), COPIED_ICON_MS)
    } catch {
      toast({ title: t('toasts.copyFailedTitle'), description: t('toasts.copyFailed'), variant: 'destructive' })
    }
  }

  return (
    <Button variant="ghost" size="icon" className="size-8 shrink-0" onClick={() => void copy()} aria-label={isCopied ? t('actions.copied') : label}>
      {isCopied ? <Check aria-hidden="true" className="text-green-700 dark:text-green-400" /> : <Copy aria-hidden="true" />}
    </Button>
  )
}

function ApiEntry({ api }: { api: PublicApi }) {
  const { t } = useTranslation('common')
  return (
    <li className="rounded-lg border border-slate-200 p-4 dark:border-slate-700">
      <div className="flex flex-wrap items-center gap-2">
        <h3 className="text-base font-semibold">{api.name}</h3>
        {api.free && <Badge variant="success">{t('apiKeys.free')}</Badge>}
        <Badge variant="outline">{api.requiresKey ? t('apiKeys.keyRequired') : t('apiKeys.noKey')}</Badge>
      </div>
      <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">{t(`apiKeys.items.${api.id}.description`)}</p>
      {api.freeLimit && (
        <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">
          {t('apiKeys.freeLimit')}: {t(`apiKeys.limits.${api.freeLimit.key}`, { count: api.freeLimit.count, formatted: api.freeLimit.count.toLocaleString() })}
        </p>
      )}
      <div className="mt-3 flex items-center gap-1 rounded-md bg-slate-100 px-2 py-1 dark:bg-slate-800">
        <span className="text-xs font-medium text-slate-700 dark:text-slate-300">{t('apiKeys.baseUrl')}</span>
        <code className="min-w-0 flex-1 truncate text-xs" dir="ltr">{api.baseUrl}</code>
        <CopyButton text={api.baseUrl} label={t('apiKeys.copyBaseUrl', { name: api.name })} />
      </div>
      <h4 className="mt-3 text-sm font-semibold">{t('apiKeys.endpoints')}</h4>
      <ul className="mt-1 space-y-1">
        {api.endpoints.map((e, i) => (
          <li key={e.path} className="flex items-center gap-2 text-xs">
            <Badge variant="secondary" className="font-mono">{e.method}</Badge>
            <span className="min-w-0 flex-1">
              <code className="block truncate" dir="ltr">{e.path}</code>
              <span className="text-slate-700 dark:text-slate-300">{t(`apiKeys.items.${api.id}.endpoints.${i}`)}</span>
            </span>
            <CopyButton text={api.baseUrl + e.path} label={t('apiKeys.copyEndpoint', { path: e.path })} />
          </li>
        ))}
      </ul>
      <div className="mt-3 flex flex-wrap gap-3 text-sm">
        <a className="inline-flex items-center gap-1 text-blue-700 underline-offset-4 hover:underline dark:text-blue-400" href={api.documentation} target="_blank" rel="noopener noreferrer">
          {t('apiKeys.documentation')} <ExternalLink aria-hidden="true" className="size-3.5" />
        </a>
        {api.signupUrl && (
          <a className="inline-flex items-center gap-1 text-blue-700 underline-offset-4 hover:underline dark:text-blue-400" href={api.signupUrl} target="_blank" rel="noopener noreferrer">
            {t('apiKeys.getKey')} <ExternalLink aria-hidden="true" className="size-3.5" />
          </a>
        )}
      </div>
    </li>
  )
}

/** The header's dialog of open public APIs (spec §2/§3). */
export function ApiKeysDialog({ triggerClassName }: { triggerClassName?: string }) {
  const { t } = useTranslation('common')
  return (
    <Dialog>
      <DialogTrigger asChild>
        <Button variant="ghost" size="icon" className={triggerClassName} aria-label={t('apiKeys.open')} title={t('apiKeys.open')}>
          <KeyRound aria-hidden="true" />
        </Button>
      </DialogTrigger>
      <DialogContent closeLabel={t('actions.close')} className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>{t('apiKeys.title')}</DialogTitle>
          <DialogDescription>{t('apiKeys.description')}</DialogDescription>
        </DialogHeader>
        <section aria-labelledby="own-api-title" className="rounded-lg border border-blue-200 bg-blue-50 p-4 dark:border-blue-900 dark:bg-blue-950">
          <h3 id="own-api-title" className="text-base font-semibold">{t('apiKeys.ownTitle')}</h3>
          <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">{t('apiKeys.ownText')}</p>
          {/* Served by our own api (Swagger UI), not a route of this app: a plain link, same tab. */}
          <a className="mt-2 inline-block text-sm font-medium text-blue-700 underline-offset-4 hover:underline dark:text-blue-400" href="/api/docs">
            {t('apiKeys.ownLink')}
          </a>
        </section>
        <ul className="space-y-3">
          {PUBLIC_APIS.map((api) => (
            <ApiEntry key={api.id} api={api} />
          ))}
        </ul>
      </DialogContent>
    </Dialog>
  )
}
