import { useId, useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { Button, Card, CardContent, CardDescription, CardHeader, CardTitle, cn, FieldError, fieldClass, Input, Label, useToast } from '@tempbox/ui'
import { Copy, Download, QrCode } from 'lucide-react'
import { dataUrlToBlob, makeQrDataUrl, prepareQrText, QR_DOWNLOAD_SIZES, QR_FILE_NAME, QR_MAX_BYTES, QR_SIZE, qrByteLength, type QrDownloadSize } from '../lib/qr'

/** QR code card (spec §2, §5): made in the browser with the `qrcode` package, nothing typed is sent anywhere. */
export function QrGeneratorTool() {
  const { t, i18n } = useTranslation('tools')
  const { toast } = useToast()
  const inputId = useId()
  const [text, setText] = useState('')
  const [qr, setQr] = useState<{ value: string; dataUrl: string } | null>(null)
  const [busy, setBusy] = useState(false)
  const [downloadSize, setDownloadSize] = useState<QrDownloadSize>(QR_SIZE)
  const sizeId = useId()
  /** Why the last Generate failed, at the field until the text changes. */
  const [fieldError, setFieldError] = useState<string | null>(null)
  const errorId = `${inputId}-error`

  /** A failure also drops the code shown before, so nobody downloads or copies a code of other text. */
  function fail(message: string) {
    setQr(null)
    setFieldError(message)
    toast({ title: t('qr.errorTitle'), description: message, variant: 'destructive' })
  }

  async function generate(event?: FormEvent) {
    event?.preventDefault()
    if (!text.trim()) {
      toast({ title: t('qr.errorTitle'), description: t('qr.emptyText'), variant: 'destructive' })
      return
    }
    const { value, formatted } = prepareQrText(text)
    const bytes = qrByteLength(value)
    if (bytes > QR_MAX_BYTES) {
      const number = new Intl.NumberFormat(i18n.language)
      fail(t('qr.tooLong', { max: number.format(QR_MAX_BYTES), bytes: number.format(bytes) }))
      return
    }
    setFieldError(null)
    setBusy(true)
    try {
      const dataUrl = await makeQrDataUrl(value)
      setQr({ value, dataUrl })
      if (formatted) {
        setText(value)
        toast({ title: t('qr.urlFormatted'), description: t('qr.urlFormattedText', { url: value }) })
      }
    } catch {
      fail(t('qr.generateFailed'))
    } finally {
      setBusy(false)
    }
  }

  function requireQr(): { value: string; dataUrl: string } | null {
    if (!qr) toast({ title: t('qr.errorTitle'), description: t('qr.generateFirst'), variant: 'destructive' })
    return qr
  }

  async function download() {
    const current = requireQr()
    if (!current) return
    try {
      const dataUrl = downloadSize === QR_SIZE ? current.dataUrl : await makeQrDataUrl(current.value, downloadSize)
      const url = URL.createObjectURL(dataUrlToBlob(dataUrl))
      const a = document.createElement('a')
      a.href = url
      a.download = QR_FILE_NAME
      document.body.append(a)
      a.click()
      a.remove()
      setTimeout(() => URL.revokeObjectURL(url), 10_000)
    } catch {
      toast({ title: t('qr.errorTitle'), description: t('qr.downloadFailed'), variant: 'destructive' })
    }
  }

  async function copy() {
    const current = requireQr()
    if (!current) return
    try {
      if (typeof ClipboardItem === 'undefined' || !navigator.clipboard?.write) throw new Error('no image clipboard')
      await navigator.clipboard.write([new ClipboardItem({ 'image/png': dataUrlToBlob(current.dataUrl) })])
      toast({ title: t('copied'), description: t('qr.imageCopied') })
    } catch {
      // Browsers without image clipboard support still get the text the code holds.
      try {
        await navigator.clipboard.writeText(current.value)
        toast({ title: t('copied'), description: t('qr.textCopied') })
      } catch {
        toast({ title: t('qr.errorTitle'), description: t('qr.copyFailed'), variant: 'destructive' })
      }
    }
  }

  return (
    <Card className="w-full" data-testid="qr-generator">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <QrCode aria-hidden className="size-5 text-blue-700 dark:text-blue-400" />
          {t('qr.title')}
        </CardTitle>
        <CardDescription>{t('qr.description')}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <form onSubmit={generate} className="flex flex-col gap-2">
          <Label htmlFor={inputId}>{t('qr.textLabel')}</Label>
          <div className="flex flex-col gap-2 sm:flex-row">
            <Input
              id={inputId}
              value={text}
              onChange={(e) => {
                setText(e.target.value)
                setFieldError(null)
              }}
              placeholder={t('qr.placeholder')}
              autoComplete="off"
              aria-invalid={fieldError ? true : undefined}
              aria-describedby={fieldError ? errorId : undefined}
            />
            <Button type="submit" disabled={text === '' || busy}>
              <QrCode aria-hidden />
              {busy ? t('qr.generating') : t('qr.generate')}
            </Button>
          </div>
          {fieldError && <FieldError id={errorId}>{fieldError}</FieldError>}
        </form>
        <div className="flex flex-col items-center gap-3">
          {qr ? (
            <img src={qr.dataUrl} width={QR_SIZE} height={QR_SIZE} alt={t('qr.imageAlt', { text: qr.value })} className="rounded-md border border-slate-200 bg-white dark:border-slate-700" />
          ) : (
            <div className="flex size-[200px] items-center justify-center rounded-md border border-dashed border-slate-300 p-4 text-center text-sm text-slate-600 dark:border-slate-600 dark:text-slate-300">
              {t('qr.emptyPreview')}
            </div>
          )}
          <div className="flex w-full flex-col gap-2 sm:w-auto sm:flex-row sm:items-end">
            <div className="flex flex-col gap-1">
              <Label htmlFor={sizeId}>{t('qr.sizeLabel')}</Label>
              <select
                id={sizeId}
                value={downloadSize}
                onChange={(e) => setDownloadSize(Number(e.target.value) as QrDownloadSize)}
                className={cn(fieldClass, 'h-9')}
              >
                {QR_DOWNLOAD_SIZES.map((size) => (
                  <option key={size} value={size}>
                    {t('qr.sizeOption', { size: new Intl.NumberFormat(i18n.language).format(size) })}
                  </option>
                ))}
              </select>
            </div>
            <Button variant="outline" onClick={() => void download()}>
              <Download aria-hidden />
              {t('qr.download')}
            </Button>
            <Button variant="outline" onClick={() => void copy()}>
              <Copy aria-hidden />
              {t('qr.copy')}
            </Button>
          </div>
        </div>
      </CardContent>
    </Card>
  )
}
