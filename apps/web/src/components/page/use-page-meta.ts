import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'

export type PageKey =
  | 'home' | 'blog' | 'about' | 'contact' | 'legal' | 'privacy' | 'terms' | 'disclaimer' | 'cookies' | 'gdpr'
  | 'analytics' | 'adminSetup' | 'notFound'

function setMetaDescription(content: string) {
  let tag = document.querySelector<HTMLMetaElement>('meta[name="description"]')
  if (!tag) {
    tag = document.createElement('meta')
    tag.name = 'description'
    document.head.appendChild(tag)
  }
  tag.content = content
}

/** Sets the document title and meta description of a page, in the current language. */
export function usePageMeta(page: PageKey) {
  const { t, i18n } = useTranslation('common')
  useEffect(() => {
    document.title = t(`meta.${page}.title`)
    setMetaDescription(t(`meta.${page}.description`))
  }, [page, t, i18n.language])
}
