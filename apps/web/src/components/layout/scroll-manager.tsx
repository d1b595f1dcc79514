import { useEffect } from 'react'
import { useLocation, useNavigationType } from 'react-router'

/** Spec §9: after back/forward the page scrolls to the top after 100 ms. */
export const POP_SCROLL_DELAY_MS = 100

/**
 * Back/forward: scroll to top after 100 ms. A new page: start at the top, or at the element its hash names.
 */
export function ScrollManager() {
  const { pathname, hash, key } = useLocation()
  const navigationType = useNavigationType()
  useEffect(() => {
    if (navigationType === 'POP') {
      const timer = setTimeout(() => window.scrollTo({ top: 0, left: 0, behavior: 'instant' }), POP_SCROLL_DELAY_MS)
      return () => clearTimeout(timer)
    }
    if (hash) {
      // The target may be in a page still loading; try again on the next frames.
      let frames = 0
      let raf = 0
      const tryScroll = () => {
        const el = document.getElementById(decodeURIComponent(hash.slice(1)))
        if (el) {
          el.scrollIntoView({ behavior: 'smooth', block: 'start' })
          // Keyboard and screen-reader users land where the page scrolled to, not back at the button they pressed.
          if (!el.matches('a[href], button, input, select, textarea, [tabindex]')) el.setAttribute('tabindex', '-1')
          el.focus({ preventScroll: true })
        } else if (frames++ < 60) raf = requestAnimationFrame(tryScroll)
      }
      tryScroll()
      return () => cancelAnimationFrame(raf)
    }
    window.scrollTo({ top: 0, left: 0, behavior: 'instant' })
    return undefined
  }, [pathname, hash, key, navigationType])
  return null
}
