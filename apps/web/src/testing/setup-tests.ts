import '@testing-library/jest-dom/vitest'
import { afterEach } from 'vitest'
import { cleanup, configure } from '@testing-library/react'
import fc from 'fast-check'
import { NAMESPACES } from '@tempbox/i18n'
import i18n, { applyLanguage, ensureNamespaces } from '../lib/i18n'

// Properties run the same cases on every machine; FC_SEED explores others (fast-check prints the seed of a failure).
fc.configureGlobal({ seed: Number(process.env.FC_SEED ?? 20261128) })

// findBy* and waitFor wait for what the user would see; their default second is too short on a busy shared 2-core
// machine (pnpm test runs this suite beside tests/). Like testTimeout, it only bounds a hang.
configure({ asyncUtilTimeout: 10_000 })

// jsdom has no pointer capture; Radix's toast (swipe to dismiss) asks for it when its action button is clicked.
Element.prototype.hasPointerCapture ??= () => false
Element.prototype.releasePointerCapture ??= () => undefined

// The app loads some English namespaces with their lazy chunks; components under test get them all up front.
await ensureNamespaces(NAMESPACES)

afterEach(async () => {
  cleanup()
  // Workers share this module graph (isolate: false): a test that switched language and failed before switching
  // back must not leave the next file's tests reading Arabic.
  if (i18n.language !== 'en') await applyLanguage('en')
  localStorage.clear()
})
