import { useEffect } from 'react'
import { inBackground, onBackgroundChange } from '../lib/background'

/** The count this hook puts in front of the title; a route's own title never starts like this. */
const COUNT_PREFIX = /^\(\d{1,7}\) /

/**
 * "(2) Tempbox": the unread count leads the tab's title while the tab is in the background, so a reader waiting for a
 * code in another tab sees it arrive; in front again, the title is the page's own.
 */
export function useUnreadTitle(unread: number): void {
  useEffect(() => {
    const apply = () => {
      const base = document.title.replace(COUNT_PREFIX, '')
      const title = unread > 0 && inBackground() ? `(${unread}) ${base}` : base
      if (document.title !== title) document.title = title
    }
    apply()
    const unsubscribe = onBackgroundChange(apply)
    return () => {
      unsubscribe()
      document.title = document.title.replace(COUNT_PREFIX, '')
    }
  }, [unread])
}
