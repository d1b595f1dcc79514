import i18n from 'i18next'
import { initReactI18next } from 'react-i18next'
import { DEFAULT_LANGUAGE, initialResources, isLanguageCode, LANGUAGE_STORAGE_KEY, loadLanguage, loadNamespace, NAMESPACES, RTL_LANGUAGES, type LanguageCode } from '@tempbox/i18n'

function storedLanguage(): LanguageCode {
  const value = typeof localStorage === 'undefined' ? null : localStorage.getItem(LANGUAGE_STORAGE_KEY)
  return isLanguageCode(value) ? value : DEFAULT_LANGUAGE
}

/** Applies the language to <html lang dir>, loading its tables first. */
export async function applyLanguage(lng: LanguageCode): Promise<void> {
  // Some English namespaces load on demand, so check every namespace, not just `common`.
  if (NAMESPACES.some((ns) => !i18n.hasResourceBundle(lng, ns))) {
    const tables = await loadLanguage(lng)
    for (const [ns, table] of Object.entries(tables)) i18n.addResourceBundle(lng, ns, table, true, true)
  }
  await i18n.changeLanguage(lng)
  document.documentElement.lang = lng
  document.documentElement.dir = RTL_LANGUAGES.includes(lng) ? 'rtl' : 'ltr'
  localStorage.setItem(LANGUAGE_STORAGE_KEY, lng)
}

/** Loads namespaces that are not in the first bundle (e.g. `legal`), in English and the current language, before a page renders. */
export async function ensureNamespaces(namespaces: readonly string[]): Promise<void> {
  const current = isLanguageCode(i18n.language) ? i18n.language : DEFAULT_LANGUAGE
  const languages: LanguageCode[] = current === 'en' ? ['en'] : [current, 'en']
  await Promise.all(
    languages.flatMap((lng) =>
      namespaces
        .filter((ns) => !i18n.hasResourceBundle(lng, ns))
        .map(async (ns) => {
          const table = await loadNamespace(lng, ns)
          if (table) i18n.addResourceBundle(lng, ns, table, true, true)
        }),
    ),
  )
}

void i18n.use(initReactI18next).init({
  resources: initialResources,
  lng: 'en',
  fallbackLng: 'en',
  ns: NAMESPACES,
  defaultNS: 'common',
  interpolation: { escapeValue: false },
  returnNull: false,
})

const initial = storedLanguage()
if (initial !== 'en') void applyLanguage(initial)

export default i18n
