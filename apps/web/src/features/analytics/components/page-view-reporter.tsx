import { usePageViewReporter } from '../hooks/use-page-view-reporter'

/** Mounted once in the root layout: counts each route change. */
export function PageViewReporter() {
  usePageViewReporter()
  return null
}
