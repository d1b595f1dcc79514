import type { Resource, ResourceLanguage } from 'i18next'
import type { LanguageCode } from './languages.js'

type Table = Record<string, unknown>

/**
 * English namespaces that only lazily loaded pages, tools and dialogs use: they load with them (see the web app's
 * `ensureNamespaces`) so the home page's first bundle stays small. Every other namespace ships in the first bundle.
 */
export const ON_DEMAND_NAMESPACES = ['blog', 'legal', 'email', 'tools', 'account', 'analytics', 'admin'] as const

// English ships in the first bundle (it is also the fallback), except the on-demand namespaces; every other language is a lazy chunk.
const englishModules = import.meta.glob<{ default: Table }>(
  ['../locales/en/*.json', '!../locales/en/blog.json', '!../locales/en/legal.json', '!../locales/en/email.json', '!../locales/en/tools.json', '!../locales/en/account.json', '!../locales/en/analytics.json', '!../locales/en/admin.json'],
  { eager: true },
)
const englishOnDemand = import.meta.glob<{ default: Table }>(['../locales/en/blog.json', '../locales/en/legal.json', '../locales/en/email.json', '../locales/en/tools.json', '../locales/en/account.json', '../locales/en/analytics.json', '../locales/en/admin.json'])
// One generated module per language (src/bundles/<lng>.ts) keeps this map at 23 entries instead of one per file.
const languageBundles = import.meta.glob<{ default: Record<string, Table> }>('./bundles/*.ts')

function namespaceOf(path: string): { lng: string; ns: string } {
  const match = /locales\/([^/]+)\/([^/]+)\.json$/.exec(path)
  if (!match) throw new Error(`[i18n] unexpected locale file ${path}`)
  return { lng: match[1]!, ns: match[2]! }
}

/** English tables loaded up front, keyed by namespace. */
export const englishResources: ResourceLanguage = Object.fromEntries(
  Object.entries(englishModules).map(([path, mod]) => [namespaceOf(path).ns, mod.default]),
)

/** Every namespace present in English. */
export const NAMESPACES = [...Object.keys(englishResources), ...ON_DEMAND_NAMESPACES.filter((ns) => `../locales/en/${ns}.json` in englishOnDemand)]

/** Loads one namespace of one language, or null when that table does not exist. */
export async function loadNamespace(lng: LanguageCode, ns: string): Promise<Table | null> {
  if (lng === 'en') {
    if (ns in englishResources) return englishResources[ns] as Table
    const load = englishOnDemand[`../locales/en/${ns}.json`]
    return load ? (await load()).default : null
  }
  const load = languageBundles[`./bundles/${lng}.ts`]
  if (!load) return null
  const bundle = (await load()).default
  return bundle[`../../locales/${lng}/${ns}.json`] ?? null
}

/** Loads all namespaces of one language. */
export async function loadLanguage(lng: LanguageCode): Promise<ResourceLanguage> {
  const entries = await Promise.all(NAMESPACES.map(async (ns) => [ns, await loadNamespace(lng, ns)] as const))
  return Object.fromEntries(entries.filter(([, table]) => table !== null)) as ResourceLanguage
}

/** Initial resources for i18next. */
export const initialResources: Resource = { en: englishResources }
