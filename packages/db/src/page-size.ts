import type SQLite from 'better-sqlite3'
import { PAGE_SIZE } from './create-db.js'

export type PageSizeResult = { changed: false; pageSize: number } | { changed: true; from: number; to: number }

/**
 * Rewrites a database made with smaller pages (SQLite's default 4 KB, before Tempbox used 16 KB) into PAGE_SIZE pages.
 * A WAL database keeps its page size until it leaves WAL mode and is VACUUMed, which needs the file to itself: with the
 * api or mail-ingest still connected this throws and changes nothing.
 */
export function convertPageSize(sqlite: SQLite.Database): PageSizeResult {
  const pageSize = Number(sqlite.pragma('page_size', { simple: true }))
  if (pageSize === PAGE_SIZE) return { changed: false, pageSize }
  let mode: unknown
  try {
    mode = sqlite.pragma('journal_mode = DELETE', { simple: true })
  } catch (error) {
    // Only a lock held by another connection means "in use"; anything else (a read-only file, say) is its own error.
    if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error
  }
  if (mode !== 'delete') throw new Error('the database is in use: stop the api and mail-ingest first')
  try {
    sqlite.pragma(`page_size = ${PAGE_SIZE}`)
    sqlite.exec('VACUUM')
  } finally {
    sqlite.pragma('journal_mode = WAL')
  }
  return { changed: true, from: pageSize, to: Number(sqlite.pragma('page_size', { simple: true })) }
}
