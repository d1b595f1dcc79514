// `pnpm build` of the api, after tsc: the ASN table's binary file from @ip-location-db/asn's CSV, written beside the
// compiled app (dist/geoip/), where the running api opens it read only. Unchanged data: the file is kept as it is; the
// files of older data versions are removed, so neither the folder nor the image grows with each update of the data.
// Run in the api's folder, with the compiled packages: `node --conditions=tempbox-compiled scripts/build-asn-table.mjs`.
import { existsSync, readdirSync, rmSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'

// What tsc has just emitted (not there before a build, so not a static import for the linter to resolve).
const compiled = (path) => import(new URL(`../dist/services/geoip/${path}`, import.meta.url).href)
const { loadAsnTable } = await compiled('geoip-asn-table.js')
const { defaultGeoipPaths } = await compiled('geoip-service.js')

const paths = defaultGeoipPaths()
const existed = existsSync(paths.asnBuilt)
const table = await loadAsnTable(paths.asnV4, paths.asnV6, paths.asnBuilt)
await table.close()
const folder = dirname(paths.asnBuilt)
for (const name of readdirSync(folder)) if (name !== basename(paths.asnBuilt)) rmSync(join(folder, name), { force: true })
console.log(`${existed ? 'kept' : 'built'} ${paths.asnBuilt.slice(paths.asnBuilt.lastIndexOf('/dist/') + 1)}`)
