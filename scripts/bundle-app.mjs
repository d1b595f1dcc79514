// `pnpm build` of an app, after tsc: each entry in dist/, and each worker thread the app starts, becomes one file with
// the code it imports. Node then reads one file per thread instead of ~1,700 (resolving and compiling those was most of
// an api's start). Run in the app's folder: `node ../../scripts/bundle-app.mjs dist/server.js`.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { build } from 'esbuild'
import { asciiOnly } from './ascii-only.mjs'

/**
 * Loaded from node_modules at run time, so each must be a dependency of the app itself: native addons, and packages
 * that read files beside their own code (Swagger UI's static files, @fastify/swagger's package.json).
 */
const EXTERNAL = ['better-sqlite3', 'argon2', 'pg-native', '@fastify/swagger', '@fastify/swagger-ui']
/**
 * Left out only of an app that lists it itself: the api imports undici only to deliver a webhook (bundled, its 1.1 MB
 * were compiled at every start, ~120 ms of CPU); mail-ingest's mailauth requires it at load, from its own copy.
 */
const EXTERNAL_WHEN_OWN = ['undici']
const ownDependencies = Object.keys(JSON.parse(readFileSync('package.json', 'utf8')).dependencies ?? {})
/** A worker thread named by its source file, as apps/mail-ingest starts them (worker-rpc.ts). */
const WORKER_URL = /new URL\(\s*'(\.{1,2}\/[^']+)\.ts'\s*,\s*import\.meta\.url\s*\)/g
const ROOT = resolve(import.meta.dirname, '..')
/** Our compiled modules (the apps' and the workspace packages' dist/), told apart by esbuild's Go regexps. */
const OWN_JS = new RegExp(`^${ROOT.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/(apps|packages)/[^/]+/dist/.*\\.js$`)

const dist = resolve('dist')
const mains = new Set(process.argv.slice(2).map((entry) => resolve(entry)))
const workers = new Set()
for (const file of readdirSync(dist, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.js'))) {
  const path = join(dist, file)
  for (const [, name] of readFileSync(path, 'utf8').matchAll(WORKER_URL)) {
    const worker = join(dirname(path), `${name}.js`)
    if (existsSync(worker) && !mains.has(worker)) workers.add(worker)
  }
}
const entries = new Set([...mains, ...workers])

/**
 * keepNames keeps `fn.name` of what bundling renamed (fastify-plugin names plugins by it), at a defineProperty per
 * function made, inner closures included: in the worker threads, which run mailparser and the writer per message,
 * that was ~10 % of a parse worker's CPU, and nothing there reads a function's name.
 */
const bundle = (entryPoints, keepNames) => build({
  entryPoints: [...entryPoints],
  outdir: dist,
  outbase: dist,
  allowOverwrite: true,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  conditions: ['tempbox-compiled'],
  external: [...EXTERNAL, ...EXTERNAL_WHEN_OWN.filter((name) => ownDependencies.includes(name))],
  keepNames,
  logLevel: 'warning',
  banner: {
    // CommonJS dependencies inside an ES module still call require() (for Node's own modules, say); each bundle finds
    // the app's dist/ from its own URL (worker bundles may sit in a subfolder).
    js: [
      "import { createRequire as __bundleRequire } from 'node:module';",
      'const require = __bundleRequire(import.meta.url);',
      "const __distUrl = import.meta.url.slice(0, import.meta.url.lastIndexOf('/dist/') + 6);",
    ].join(' '),
  },
  plugins: [
    {
      name: 'own-import-meta-url',
      setup(b) {
        // Our modules take paths from their own location (the web build, the GeoIP cache, worker files): each keeps the
        // URL it had unbundled, as a path from the app's dist/, which the repository and a `pnpm deploy` both keep.
        b.onLoad({ filter: OWN_JS }, (args) => {
          const text = readFileSync(args.path, 'utf8')
          if (!text.includes('import.meta.url')) return undefined
          const own = relative(dist, args.path)
          return { contents: text.replaceAll('import.meta.url', `new URL(${JSON.stringify(own)}, __distUrl).href`), loader: 'js' }
        })
      },
    },
  ],
})
await Promise.all([bundle(mains, true), workers.size > 0 ? bundle(workers, false) : null])
for (const entry of entries) {
  const left = asciiOnly(entry)
  if (left > 0) console.warn(`${relative(process.cwd(), entry)} keeps ${left} non-ASCII characters: Node will hold it as UTF-16`)
}
console.log(`bundled ${[...entries].map((e) => relative(process.cwd(), e)).join(', ')}`)
