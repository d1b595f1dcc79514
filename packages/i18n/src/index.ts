export * from './languages.js'
export { englishResources, initialResources, loadLanguage, loadNamespace, NAMESPACES, ON_DEMAND_NAMESPACES } from './resources.js'
