import '@testing-library/jest-dom/vitest'
import { afterEach } from 'vitest'
import { cleanup } from '@testing-library/react'
import { NAMESPACES } from '@tempbox/i18n'
import { ensureNamespaces } from '../lib/i18n'

// jsdom has no pointer capture; Radix's toast (swipe to dismiss) asks for it when its action button is clicked.
Element.prototype.hasPointerCapture ??= () => false
Element.prototype.releasePointerCapture ??= () => undefined

// The app loads some English namespaces with their lazy chunks; components under test get them all up front.
await ensureNamespaces(NAMESPACES)

afterEach(() => {
  cleanup()
  localStorage.clear()
})
