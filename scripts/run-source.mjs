// `node scripts/run-source.mjs <entry.ts> [args…]`: runs a TypeScript command from source (`pnpm owner:promote`,
// `pnpm mcp`, `pnpm docs:config`, `pnpm db:migrate`). tsx loads an entry's hundreds of modules one by one through loader
// hooks (~2 CPU-s for the api's modules); esbuild bundles them into one file instead, kept in the entry's package under
// node_modules/.cache/ and made again only once one of the files in it has changed (~0.2 CPU-s a run after the first).
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { build, version } from 'esbuild'

/** Native addons, loaded from node_modules as in the compiled bundles (scripts/bundle-app.mjs). */
const NATIVE = ['better-sqlite3', 'argon2', 'pg-native']
/** Our TypeScript modules outside node_modules, told apart by esbuild's Go regexps. */
const OWN_SOURCE = /^[^\0]*\.tsx?$/

/** The nearest folder at or above `dir` with a package.json: externals resolve from its node_modules. */
function packageRoot(dir) {
  for (let at = dir; ; at = dirname(at)) {
    if (statSync(join(at, 'package.json'), { throwIfNoEntry: false })) return at
    if (dirname(at) === at) return dir
  }
}

/** When each file last changed, as one string (none for a file that is gone). */
const changeTimes = (files) => files.map((f) => statSync(f, { throwIfNoEntry: false })?.mtimeMs ?? 'none').join()

/** The bundle of `entry`, made again when a file in it (ours or a dependency's) or esbuild itself has changed. */
export async function sourceBundle(entry) {
  const root = packageRoot(dirname(entry))
  const dir = join(root, 'node_modules', '.cache', 'tempbox-run')
  const file = join(dir, `${relative(root, entry).replace(/[/\\]/g, '-').replace(/\.tsx?$/, '')}.mjs`)
  const stampFile = `${file}.json`
  try {
    const stamp = JSON.parse(readFileSync(stampFile, 'utf8'))
    if (stamp.esbuild === version && changeTimes(stamp.inputs) === stamp.changedAt) return file
  } catch {
    // No bundle yet, or one from an older layout: made below.
  }
  const { outputFiles, metafile } = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    outfile: file,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: NATIVE,
    keepNames: true,
    logLevel: 'warning',
    metafile: true,
    // CommonJS dependencies inside an ES module still call require().
    banner: { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" },
    plugins: [
      {
        name: 'own-import-meta-url',
        setup(b) {
          // Our modules take paths from their own location (the repository's root, the web build, a package to
          // require): each keeps the URL it has unbundled, as under tsx.
          b.onLoad({ filter: OWN_SOURCE }, (args) => {
            if (args.path.includes('/node_modules/')) return undefined
            const text = readFileSync(args.path, 'utf8')
            if (!text.includes('import.meta.url')) return undefined
            return { contents: text.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)), loader: args.path.endsWith('x') ? 'tsx' : 'ts' }
          })
        },
      },
    ],
  })
  const inputs = Object.keys(metafile.inputs).map((input) => resolve(input))
  mkdirSync(dir, { recursive: true })
  // Written whole, then renamed: another run of the same command never reads half a file.
  const tmp = `${file}.${process.pid}.tmp`
  writeFileSync(tmp, outputFiles[0].contents)
  renameSync(tmp, file)
  writeFileSync(`${stampFile}.${process.pid}.tmp`, JSON.stringify({ esbuild: version, inputs, changedAt: changeTimes(inputs) }))
  renameSync(`${stampFile}.${process.pid}.tmp`, stampFile)
  return file
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [entryArg, ...args] = process.argv.slice(2)
  if (!entryArg) {
    console.error('Usage: node scripts/run-source.mjs <entry.ts> [arguments…]')
    process.exit(2)
  }
  const entry = resolve(entryArg)
  const bundle = await sourceBundle(entry)
  // The command sees the command line it would have under tsx: its own file, then its arguments.
  process.argv = [process.argv[0], entry, ...args]
  await import(pathToFileURL(bundle).href)
}
