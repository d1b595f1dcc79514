import { useEffect } from 'react'
import { useLocation } from 'react-router'
import { reportPageView } from '../api/analytics'

/** Reports each route change to the privacy-preserving counters (path only; no query string or hash). */
export function usePageViewReporter(): void {
  const { pathname } = useLocation()
  useEffect(() => {
    reportPageView(pathname)
  }, [pathname])
}
