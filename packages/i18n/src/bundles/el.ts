// One chunk per language with all its namespaces: loaded when the language is chosen.
export default import.meta.glob<Record<string, unknown>>('../../locales/el/*.json', { eager: true, import: 'default' })
