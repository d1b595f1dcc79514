import { Button } from '@tempbox/ui'
import { ArrowDown, ArrowUp } from 'lucide-react'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'

/** Spec §9: the buttons appear once the page is scrolled more than 300 px. */
export const SCROLL_BUTTONS_THRESHOLD_PX = 300
/** On a phone the buttons would sit over the inbox rows: there they go away this long after the scrolling stops. */
export const PHONE_IDLE_HIDE_MS = 1500
const WIDE_SCREEN = '(min-width: 640px)'

export function ScrollButtons() {
  const { t } = useTranslation('common')
  const [isVisible, setIsVisible] = useState(false)
  useEffect(() => {
    let idle: ReturnType<typeof setTimeout> | undefined
    const onScroll = () => {
      const past = window.scrollY > SCROLL_BUTTONS_THRESHOLD_PX
      setIsVisible(past)
      clearTimeout(idle)
      if (past && !window.matchMedia(WIDE_SCREEN).matches) idle = setTimeout(() => setIsVisible(false), PHONE_IDLE_HIDE_MS)
    }
    onScroll()
    window.addEventListener('scroll', onScroll, { passive: true })
    return () => {
      clearTimeout(idle)
      window.removeEventListener('scroll', onScroll)
    }
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
