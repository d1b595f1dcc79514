import { Button } from '@tempbox/ui'
import { ArrowDown, ArrowUp } from 'lucide-react'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'

/** Spec §9: the buttons appear once the page is scrolled more than 300 px. */
export const SCROLL_BUTTONS_THRESHOLD_PX = 300
/** On a phone the buttons would sit over the inbox rows: there they go away this long after the scrolling stops. */
export const PHONE_IDLE_HIDE_MS = 1500
const WIDE_SCREEN = '(min-width: 640px)'
/** Fields one types or picks in (a read-only address field, focused after Generate, is not one). */
const FIELD =
  'input:not([readonly]):not([type="button"]):not([type="submit"]):not([type="reset"]):not([type="checkbox"]):not([type="radio"]), select, textarea:not([readonly]), [contenteditable=""], [contenteditable="true"]'

/** Near the end of the page the last controls and the footer sit where the buttons would float. */
function nearBottom(): boolean {
  return window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - SCROLL_BUTTONS_THRESHOLD_PX
}

/** A field being filled in: on a phone the keyboard leaves little room, and the buttons would cover the field. */
function fieldHasFocus(): boolean {
  return document.activeElement instanceof Element && document.activeElement.matches(FIELD)
}

export function ScrollButtons() {
  const { t } = useTranslation('common')
  const [isVisible, setIsVisible] = useState(false)
  useEffect(() => {
    let idle: ReturnType<typeof setTimeout> | undefined
    const update = () => {
      const show = window.scrollY > SCROLL_BUTTONS_THRESHOLD_PX && !nearBottom() && !fieldHasFocus()
      setIsVisible(show)
      clearTimeout(idle)
      if (show && !window.matchMedia(WIDE_SCREEN).matches) idle = setTimeout(() => setIsVisible(false), PHONE_IDLE_HIDE_MS)
    }
    // Focus moves before the browser scrolls a field into view: decide once it has.
    const onFocusChange = () => requestAnimationFrame(update)
    update()
    window.addEventListener('scroll', update, { passive: true })
    document.addEventListener('focusin', onFocusChange)
    document.addEventListener('focusout', onFocusChange)
    return () => {
      clearTimeout(idle)
      window.removeEventListener('scroll', update)
      document.removeEventListener('focusin', onFocusChange)
      document.removeEventListener('focusout', onFocusChange)
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
