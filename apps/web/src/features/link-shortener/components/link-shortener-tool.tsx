import { useId, useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import useSWR from 'swr'
import { Button, Card, CardContent, CardDescription, CardHeader, CardTitle, FieldError, Input, Label, useToast } from '@tempbox/ui'
import { copyWithToast } from '../../../lib/copy-with-toast'
import { Copy, ExternalLink, Link2, Loader2 } from 'lucide-react'
import { createShortLink, fetchShortLinks } from '../api/links'
import { prepareUrl } from '../lib/validate-url'
import { useLinkStore } from '../stores/link-store'

/** Click counts are refreshed this often while the card is open. */
const CLICK_REFRESH_MS = 15_000

/** Link shortener card (spec §2, §4, §5): real short links served at /s/{code}, counting clicks. */
export function LinkShortenerTool() {
  const { t, i18n } = useTranslation('tools')
  const { toast } = useToast()
  const inputId = useId()
  const [url, setUrl] = useState('')
  const [shortening, setShortening] = useState(false)
  /** Why the last try failed, shown at the field until it is edited (the toast goes after 5 s). */
  const [fieldError, setFieldError] = useState<string | null>(null)
  const errorId = `${inputId}-error`
  const links = useLinkStore((s) => s.links)
  const add = useLinkStore((s) => s.add)
  const refresh = useLinkStore((s) => s.refresh)
  // Only links with a secret can be asked about: the server shows a link's clicks to no one else.
  const own = links.flatMap((l) => (l.secret ? [{ code: l.code, secret: l.secret }] : []))

  useSWR(own.length > 0 ? ['short-links', own.map((l) => l.code).join(',')] : null, () => fetchShortLinks(own), {
    refreshInterval: CLICK_REFRESH_MS,
    revalidateOnFocus: true,
    onSuccess: (data) => refresh(data.links),
  })

  async function shorten(event: FormEvent) {
    event.preventDefault()
    const prepared = prepareUrl(url)
    if ('problem' in prepared) {
      const text = prepared.problem === 'empty' ? t('links.emptyUrl') : t('links.invalidText')
      setFieldError(text)
      toast({ title: prepared.problem === 'empty' ? t('links.errorTitle') : t('links.invalidTitle'), description: text, variant: 'destructive' })
      return
    }
    setFieldError(null)
    setShortening(true)
    try {
      const link = await createShortLink(prepared.url)
      add(link)
      setUrl('')
      toast({ title: t('links.createdTitle'), description: link.shortened })
    } catch (err) {
      const text = err instanceof Error ? err.message : t('links.failedText')
      setFieldError(text)
      toast({ title: t('links.failedTitle'), description: text, variant: 'destructive' })
    } finally {
      setShortening(false)
    }
  }

  function copy(text: string) {
    return copyWithToast(text, { copied: t('copied'), failedTitle: t('copyFailedTitle'), failed: t('copyFailed') })
  }

  const date = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' })

  return (
    <Card className="w-full" data-testid="link-shortener">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Link2 aria-hidden className="size-5 text-blue-700 dark:text-blue-400" />
          {t('links.title')}
        </CardTitle>
        <CardDescription>{t('links.description')}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <form onSubmit={shorten} className="flex flex-col gap-2" noValidate>
          <Label htmlFor={inputId}>{t('links.urlLabel')}</Label>
          <div className="flex flex-col gap-2 sm:flex-row">
            <Input
              id={inputId}
              type="url"
              inputMode="url"
              value={url}
              onChange={(e) => {
                setUrl(e.target.value)
                setFieldError(null)
              }}
              placeholder={t('links.placeholder')}
              autoComplete="off"
              aria-invalid={fieldError ? true : undefined}
              aria-describedby={fieldError ? errorId : undefined}
            />
            <Button type="submit" disabled={shortening}>
              {shortening ? <Loader2 aria-hidden className="animate-spin" /> : <Link2 aria-hidden />}
              {shortening ? t('links.shortening') : t('links.shorten')}
            </Button>
          </div>
          {fieldError && <FieldError id={errorId}>{fieldError}</FieldError>}
        </form>

        {links.length === 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-300">{t('links.empty')}</p>
        ) : (
          <ul className="flex flex-col gap-2" aria-label={t('links.listLabel')} data-testid="short-links">
            {links.map((link) => (
              <li key={link.code} className="flex flex-col gap-1 rounded-lg border border-slate-200 p-3 dark:border-slate-700" data-code={link.code}>
                <div className="flex flex-wrap items-center gap-2">
                  <a href={link.shortened} target="_blank" rel="noopener noreferrer" className="font-medium break-all text-blue-700 hover:underline dark:text-blue-400">
                    {link.shortened}
                  </a>
                  <Button variant="ghost" size="sm" onClick={() => void copy(link.shortened)} aria-label={t('links.copyShort', { url: link.shortened })}>
                    <Copy aria-hidden />
                    {t('copy')}
                  </Button>
                </div>
                <p className="flex items-center gap-1 text-sm break-all text-slate-600 dark:text-slate-300">
                  <ExternalLink aria-hidden className="size-3.5 shrink-0" />
                  {link.original}
                </p>
                <p className="text-xs text-slate-600 dark:text-slate-300">
                  <span data-testid="clicks">{t('links.clicks', { value: link.clicks })}</span> · {date.format(new Date(link.createdAt))}
                </p>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  )
}
