export * from './languages.js'
export { englishResources, initialResources, loadLanguage, NAMESPACES } from './resources.js'
