import { Button, cn } from '@tempbox/ui'
import { useTranslation } from 'react-i18next'
import { APP_STORE_URL, PLAY_STORE_URL } from '../../lib/site-links'

function PlayIcon() {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" className="size-4" fill="currentColor">
      <path d="M4 2.5v19l10-9.5zM15.4 13.3l2.6 2.5-11.4 6.2zM15.4 10.7 6.6 2l11.4 6.2zM19.3 9l2.2 1.2c1 .6 1 1.9 0 2.5L19.3 15l-2.8-3z" />
    </svg>
  )
}

function AppleIcon() {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" className="size-4" fill="currentColor">
      <path d="M16.4 12.6c0-2.5 2-3.6 2.1-3.7-1.2-1.7-3-1.9-3.6-2-1.5-.2-3 .9-3.7.9-.8 0-2-.9-3.3-.9-1.7 0-3.2 1-4.1 2.5-1.8 3-.5 7.5 1.2 10 .8 1.2 1.8 2.6 3.1 2.5 1.3-.1 1.7-.8 3.2-.8s1.9.8 3.2.8c1.3 0 2.2-1.2 3-2.4.9-1.4 1.3-2.7 1.3-2.8 0 0-2.5-1-2.5-4.1zM14 5.2c.7-.8 1.2-2 1-3.2-1 0-2.2.7-3 1.5-.6.7-1.2 1.9-1 3.1 1.1.1 2.3-.6 3-1.4z" />
    </svg>
  )
}

/** Play Store and App Store buttons: they open the stores' searches in a new tab (spec §2). */
export function StoreButtons({ className }: { className?: string }) {
  const { t } = useTranslation('common')
  return (
    <div className={cn('flex gap-2', className)}>
      <Button asChild variant="outline" size="sm">
        <a href={PLAY_STORE_URL} target="_blank" rel="noopener noreferrer" title={t('stores.playStoreLabel')}>
          <PlayIcon />
          <span>{t('stores.playStore')}</span>
        </a>
      </Button>
      <Button asChild variant="outline" size="sm">
        <a href={APP_STORE_URL} target="_blank" rel="noopener noreferrer" title={t('stores.appStoreLabel')}>
          <AppleIcon />
          <span>{t('stores.appStore')}</span>
        </a>
      </Button>
    </div>
  )
}
