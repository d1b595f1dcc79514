import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'
import type { Plugin } from 'vite'

const brotli = promisify(brotliCompress)
const gzipped = promisify(gzip)

/** What compresses well; images and fonts are compressed already. */
const COMPRESSIBLE = /\.(js|mjs|css|svg|json|wasm|txt|map)$/
/** Below this a compressed copy saves less than a response's headers. */
const MIN_BYTES = 1024

/**
 * Writes a brotli (.br) and a gzip (.gz) copy beside each compressible file of the build, once, at the smallest size
 * each format reaches: the api sends the copy the browser accepts (@fastify/static `preCompressed`), never compressing
 * per request. The home page's scripts and styles go out as ~0.23 MB of brotli rather than 0.8 MB.
 */
export function precompressAssets(): Plugin {
  return {
    name: 'tempbox-precompress-assets',
    apply: 'build',
    async writeBundle(options, bundle) {
      const dir = options.dir ?? 'dist'
      const files = Object.values(bundle)
        .map((file) => ({ name: file.fileName, bytes: file.type === 'chunk' ? Buffer.from(file.code) : Buffer.from(file.source) }))
        .filter(({ name, bytes }) => COMPRESSIBLE.test(name) && bytes.length >= MIN_BYTES)
      await Promise.all(
        files.map(async ({ name, bytes }) => {
          const [br, gz] = await Promise.all([
            brotli(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }),
            gzipped(bytes, { level: constants.Z_BEST_COMPRESSION }),
          ])
          await Promise.all([writeFile(join(dir, `${name}.br`), br), writeFile(join(dir, `${name}.gz`), gz)])
        }),
      )
    },
  }
}
