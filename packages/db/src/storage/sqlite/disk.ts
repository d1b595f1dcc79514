import { statfsSync } from 'node:fs'
import { dirname } from 'node:path'

/** Free bytes (for an unprivileged writer) on the disk holding the database file; Infinity for ':memory:'. */
export function freeDiskBytes(databasePath: string): number {
  if (databasePath === ':memory:') return Infinity
  const stats = statfsSync(dirname(databasePath))
  return Number(stats.bavail) * Number(stats.bsize)
}

/** The part of a better-sqlite3 connection this needs. */
interface PragmaHost {
  pragma(source: string, options: { simple: true }): unknown
}

/** Bytes the database's pages take (free pages are reused before the file grows, so they do not count). */
export function databaseBytes(sqlite: PragmaHost): number {
  const pages = Number(sqlite.pragma('page_count', { simple: true })) - Number(sqlite.pragma('freelist_count', { simple: true }))
  return pages * Number(sqlite.pragma('page_size', { simple: true }))
}
