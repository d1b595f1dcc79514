import { Button } from '@tempbox/ui'
import { ArrowDown, ArrowUp } from 'lucide-react'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'

/** Spec §9: the buttons appear once the page is scrolled more than 300 px. */
export const SCROLL_BUTTONS_THRESHOLD_PX = 300

export function ScrollButtons() {
  const { t } = useTranslation('common')
  const [isVisible, setIsVisible] = useState(false)
  useEffect(() => {
    const onScroll = () => setIsVisible(window.scrollY > SCROLL_BUTTONS_THRESHOLD_PX)
    onScroll()
    window.addEventListener('scroll', onScroll, { passive: true })
    return () => window.removeEventListener('scroll', onScroll)
  }, [])
  if (!isVisible) return null
  return (
    <div className="fixed bottom-6 end-4 z-30 flex flex-col gap-2" data-testid="scroll-buttons">
      <Button size="icon" className="rounded-full shadow-lg" onClick={() => window.scrollTo({ top: 0, behavior: 'smooth' })} aria-label={t('a11y.scrollTop')}>
        <ArrowUp aria-hidden="true" />
      </Button>
      <Button size="icon" className="rounded-full shadow-lg" onClick={() => window.scrollTo({ top: document.documentElement.scrollHeight, behavior: 'smooth' })} aria-label={t('a11y.scrollBottom')}>
        <ArrowDown aria-hidden="true" />
      </Button>
    </div>
  )
}
