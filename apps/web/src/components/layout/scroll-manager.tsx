import { useEffect, useRef } from 'react'
import { useLocation, useNavigationType } from 'react-router'

/** Spec §9: after back/forward the page scrolls to the top after 100 ms. */
export const POP_SCROLL_DELAY_MS = 100
/** How long a hash target may take to appear (its page and sections load lazily) and the page above it to settle. */
const HASH_SETTLE_MS = 4000

/**
 * Back/forward: scroll to top after 100 ms. A new page: start at the top, or at the element its hash names.
 */
export function ScrollManager() {
  const { pathname, hash, key } = useLocation()
  const navigationType = useNavigationType()
  const firstLoad = useRef(true)
  useEffect(() => {
    const direct = firstLoad.current
    firstLoad.current = false
    if (navigationType === 'POP' && !(direct && hash)) {
      const timer = setTimeout(() => window.scrollTo({ top: 0, left: 0, behavior: 'instant' }), POP_SCROLL_DELAY_MS)
      return () => clearTimeout(timer)
    }
    if (hash) return scrollToHash(decodeURIComponent(hash.slice(1)), direct)
    window.scrollTo({ top: 0, left: 0, behavior: 'instant' })
    return undefined
  }, [pathname, hash, key, navigationType])
  return null
}

/**
 * Brings the element `id` names into view once it exists. On a direct load (a link to /#tools) it jumps there and
 * stays aligned while the lazily loaded sections above it take their real height, until the reader scrolls.
 */
function scrollToHash(id: string, direct: boolean): () => void {
  const deadline = performance.now() + HASH_SETTLE_MS
  let raf = 0
  let target: HTMLElement | null = null
  let readerMoved = false
  const stop = () => {
    readerMoved = true
  }
  const events = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const
  for (const name of events) window.addEventListener(name, stop, { passive: true, once: true })
  const tick = () => {
    if (readerMoved) return
    if (!target) {
      target = document.getElementById(id)
      if (target) {
        target.scrollIntoView({ behavior: direct ? 'instant' : 'smooth', block: 'start' })
        // Keyboard and screen-reader users land where the page scrolled to, not back at the button they pressed.
        if (!target.matches('a[href], button, input, select, textarea, [tabindex]')) target.setAttribute('tabindex', '-1')
        target.focus({ preventScroll: true })
        if (!direct) return
      }
    } else if (Math.abs(target.getBoundingClientRect().top - parseFloat(getComputedStyle(target).scrollMarginTop || '0')) > 2) {
      target.scrollIntoView({ behavior: 'instant', block: 'start' })
    }
    if (performance.now() < deadline) raf = requestAnimationFrame(tick)
  }
  tick()
  return () => {
    cancelAnimationFrame(raf)
    for (const name of events) window.removeEventListener(name, stop)
  }
}
