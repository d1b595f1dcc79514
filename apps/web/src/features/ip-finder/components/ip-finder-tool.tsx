import { useId, useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import useSWR from 'swr'
import type { IpInfo } from '@tempbox/types'
import { Button, Card, CardContent, CardDescription, CardHeader, CardTitle, Input, Label, useToast } from '@tempbox/ui'
import { copyWithToast } from '../../../lib/copy-with-toast'
import { regionName } from '../../../lib/region-name'
import { Copy, Globe, Loader2, Search } from 'lucide-react'
import { fetchIpInfo } from '../api/ip'
import { flagOf } from '../lib/flag'

/**
 * IP finder card: the visitor's IP, location and network, and a lookup for any address. Answered by our own
 * server from local DB-IP data (credited below); no outside service sees the visitor.
 */
export function IpFinderTool() {
  const { t } = useTranslation('tools')
  const { toast } = useToast()
  const inputId = useId()
  const own = useSWR('ip-self', () => fetchIpInfo())
  const [query, setQuery] = useState('')
  const [lookup, setLookup] = useState<{ info: IpInfo } | { error: string } | null>(null)
  const [looking, setLooking] = useState(false)

  async function lookUp(event: FormEvent) {
    event.preventDefault()
    const ip = query.trim()
    if (!ip) {
      toast({ title: t('ip.errorTitle'), description: t('ip.emptyIp'), variant: 'destructive' })
      return
    }
    setLooking(true)
    try {
      setLookup({ info: await fetchIpInfo(ip) })
    } catch (err) {
      setLookup({ error: err instanceof Error ? err.message : t('ip.lookupFailed') })
    } finally {
      setLooking(false)
    }
  }

  function copy(text: string) {
    return copyWithToast(text, { copied: t('copied'), failedTitle: t('copyFailedTitle'), failed: t('copyFailed') })
  }

  return (
    <Card className="w-full" data-testid="ip-finder">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Globe aria-hidden className="size-5 text-blue-700 dark:text-blue-400" />
          {t('ip.title')}
        </CardTitle>
        <CardDescription>{t('ip.description')}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <section aria-label={t('ip.yourIp')} className="rounded-lg bg-slate-100 p-4 dark:bg-slate-800" data-testid="own-ip">
          <p className="text-xs text-slate-600 dark:text-slate-300">{t('ip.yourIp')}</p>
          {own.data ? (
            <>
              <div className="flex flex-wrap items-center gap-2">
                <span className="font-mono text-xl font-semibold break-all" data-testid="own-ip-address">
                  {own.data.ip}
                </span>
                <Button variant="ghost" size="sm" onClick={() => void copy(own.data!.ip)} aria-label={t('ip.copyIp')}>
                  <Copy aria-hidden />
                  {t('copy')}
                </Button>
              </div>
              <IpDetails info={own.data} />
            </>
          ) : own.error ? (
            <p role="alert" className="text-sm text-red-700 dark:text-red-400">
              {own.error instanceof Error ? own.error.message : t('ip.lookupFailed')}
            </p>
          ) : (
            <p className="flex items-center gap-2 text-sm">
              <Loader2 aria-hidden className="size-4 animate-spin" />
              {t('ip.loading')}
            </p>
          )}
        </section>

        <form onSubmit={lookUp} className="flex flex-col gap-2" noValidate>
          <Label htmlFor={inputId}>{t('ip.lookupLabel')}</Label>
          <div className="flex flex-col gap-2 sm:flex-row">
            <Input id={inputId} value={query} onChange={(e) => setQuery(e.target.value)} placeholder={t('ip.placeholder')} autoComplete="off" spellCheck={false} inputMode="text" />
            <Button type="submit" disabled={looking}>
              {looking ? <Loader2 aria-hidden className="animate-spin" /> : <Search aria-hidden />}
              {looking ? t('ip.lookingUp') : t('ip.lookUp')}
            </Button>
          </div>
        </form>
        {lookup && 'error' in lookup && (
          <p role="alert" className="text-sm text-red-700 dark:text-red-400" data-testid="ip-lookup-error">
            {lookup.error}
          </p>
        )}
        {lookup && 'info' in lookup && (
          <section className="rounded-lg border border-slate-200 p-4 dark:border-slate-700" data-testid="ip-lookup-result" aria-live="polite">
            <p className="font-mono text-lg font-semibold break-all">{lookup.info.ip}</p>
            <IpDetails info={lookup.info} />
          </section>
        )}

        <p className="text-xs text-slate-600 dark:text-slate-300">
          {t('ip.credit')}{' '}
          <a href="https://db-ip.com" target="_blank" rel="noopener noreferrer" className="underline">
            DB-IP
          </a>{' '}
          (
          <a href="https://creativecommons.org/licenses/by/4.0/" target="_blank" rel="noopener noreferrer" className="underline">
            CC BY 4.0
          </a>
          )
        </p>
      </CardContent>
    </Card>
  )
}

function IpDetails({ info }: { info: IpInfo }) {
  const { t, i18n } = useTranslation('tools')
  if (info.isPrivate) {
    return (
      <p className="mt-2 text-sm" data-testid="ip-private">
        {t('ip.private')}
      </p>
    )
  }
  const place = [info.city, info.region, (info.countryCode ? regionName(info.countryCode, i18n.language) : undefined) ?? info.countryName].filter(Boolean).join(', ')
  const unknown = t('ip.unknown')
  return (
    <dl className="mt-2 grid grid-cols-1 gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
      <dt className="text-slate-600 dark:text-slate-300">{t('ip.location')}</dt>
      <dd data-testid="ip-location">
        {info.countryCode && (
          <span aria-hidden className="me-1">
            {flagOf(info.countryCode)}
          </span>
        )}
        {place || unknown}
      </dd>
      <dt className="text-slate-600 dark:text-slate-300">{t('ip.isp')}</dt>
      <dd data-testid="ip-isp">
        {info.organisation ?? unknown}
        {info.asn !== null && <span className="text-slate-600 dark:text-slate-300"> (AS{info.asn})</span>}
      </dd>
      {info.timeZone && (
        <>
          <dt className="text-slate-600 dark:text-slate-300">{t('ip.timeZone')}</dt>
          <dd>{info.timeZone}</dd>
        </>
      )}
    </dl>
  )
}
