import { usePageMeta, type PageKey } from './use-page-meta'

/** For routes owned elsewhere: gives them their title and description without touching their files. */
export function PageMeta({ page }: { page: PageKey }) {
  usePageMeta(page)
  return null
}
