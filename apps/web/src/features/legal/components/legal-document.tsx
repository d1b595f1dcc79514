import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { usePageMeta, type PageKey } from '../../../components/page/use-page-meta'
import { useSiteEmails } from '../../../lib/site-emails'

type Section = { heading: string; paragraphs?: string[]; items?: string[] }
export type LegalDocumentKey = 'privacy' | 'terms' | 'disclaimer' | 'cookies' | 'gdpr'

/** One legal page: its sections are arrays in the `legal` table so every language carries the whole text. */
export function LegalDocument({ doc }: { doc: LegalDocumentKey }) {
  const { t } = useTranslation('legal')
  usePageMeta(doc as PageKey)
  const emails = useSiteEmails()
  const vars = { supportEmail: emails.support, privacyEmail: emails.privacy, legalEmail: emails.legal }
  const sections = t(`${doc}.sections`, { returnObjects: true, ...vars }) as Section[]
  return (
    <article className="mx-auto max-w-3xl px-4 py-12">
      <h1 className="text-4xl font-extrabold tracking-tight">{t(`${doc}.title`)}</h1>
      <p className="mt-2 text-sm text-slate-700 dark:text-slate-300">{t('lastUpdated')}</p>
      <p className="mt-6 text-lg text-slate-800 dark:text-slate-200">{t(`${doc}.intro`)}</p>
      {Array.isArray(sections) &&
        sections.map((s, i) => (
          <section key={i} className="mt-8">
            <h2 className="text-2xl font-bold">{s.heading}</h2>
            {s.paragraphs?.map((p, j) => <p key={j} className="mt-3 text-slate-800 dark:text-slate-200">{p}</p>)}
            {s.items && (
              <ul className="mt-3 list-disc space-y-2 ps-6 text-slate-800 dark:text-slate-200">
                {s.items.map((item, j) => <li key={j}>{item}</li>)}
              </ul>
            )}
          </section>
        ))}
      <p className="mt-10">
        <Link to="/legal" className="text-blue-700 underline-offset-4 hover:underline dark:text-blue-400">{t('backToIndex')}</Link>
      </p>
    </article>
  )
}
