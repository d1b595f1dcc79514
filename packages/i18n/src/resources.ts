import type { Resource, ResourceLanguage } from 'i18next'
import type { LanguageCode } from './languages.js'

// English ships in the first bundle (it is also the fallback); every other language is a lazy chunk.
const englishModules = import.meta.glob<{ default: Record<string, unknown> }>('../locales/en/*.json', { eager: true })
const lazyModules = import.meta.glob<{ default: Record<string, unknown> }>(['../locales/*/*.json', '!../locales/en/*.json'])

function namespaceOf(path: string): { lng: string; ns: string } {
  const match = /locales\/([^/]+)\/([^/]+)\.json$/.exec(path)
  if (!match) throw new Error(`[i18n] unexpected locale file ${path}`)
  return { lng: match[1]!, ns: match[2]! }
}

/** English tables, keyed by namespace. */
export const englishResources: ResourceLanguage = Object.fromEntries(
  Object.entries(englishModules).map(([path, mod]) => [namespaceOf(path).ns, mod.default]),
)

/** Every namespace present in English. */
export const NAMESPACES = Object.keys(englishResources)

/** Loads all namespaces of one language (English is already loaded). */
export async function loadLanguage(lng: LanguageCode): Promise<ResourceLanguage> {
  if (lng === 'en') return englishResources
  const entries = await Promise.all(
    Object.entries(lazyModules)
      .filter(([path]) => namespaceOf(path).lng === lng)
      .map(async ([path, load]) => [namespaceOf(path).ns, (await load()).default] as const),
  )
  return Object.fromEntries(entries)
}

/** Initial resources for i18next. */
export const initialResources: Resource = { en: englishResources }
