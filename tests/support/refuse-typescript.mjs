// Preloaded (`node --import`) into the compiled apps by the compiled-build test: any TypeScript module the process
// resolves fails it, in the worker threads started from a file too (they inherit --import; Node 20 skips it only for
// `eval` workers, which the compiled apps do not start), so the test proves that production runs on the emitted
// JavaScript alone. A resolve hook rather than a load hook, because a loader registered later runs first and may load
// .ts itself, but still resolves through this one. JavaScript, not TypeScript: it runs without a loader.
import { register } from 'node:module'

const hooks = `export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context)
  if (/\\.[cm]?tsx?$/.test(new URL(resolved.url).pathname)) throw new Error('refused to load TypeScript: ' + resolved.url)
  return resolved
}`
register(`data:text/javascript,${encodeURIComponent(hooks)}`)
