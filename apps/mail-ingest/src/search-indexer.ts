import type { Storage } from '@tempbox/db'

/**
 * How long the indexer waits after a step that emptied the backlog (or found none): mail stored meanwhile is searched
 * by reading its copy. FTS5 pays per transaction too, so waiting lets the next step be larger: steps 20 ms apart under
 * 2 KB × 16 ingest held ~35 copies and the index thread took 18 % of a core, which competed with every message's path.
 */
export const PAUSE_MS = 200
/** After a failed step (the file locked past its busy timeout, a full disk): the index is derived, mail goes on. */
const RETRY_MS = 5_000

/**
 * Fills the search index an engine keeps apart from the message commits (SQLite: the index file beside the database):
 * steps back to back while each stops at its limits, otherwise one every PAUSE_MS for new mail and for deletions. Runs
 * on a thread of its own (search-index-worker.ts; the SMTP thread with SMTP_PARSE_WORKERS=0); null when the engine keeps
 * its index itself.
 */
export function startSearchIndexer(storage: Pick<Storage, 'indexesSearchApart' | 'indexSearchStep'>): { stop: () => void } | null {
  if (!storage.indexesSearchApart) return null
  let timer: NodeJS.Timeout | null = null
  let stopped = false
  let lastError = ''
  const step = async () => {
    timer = null
    let wait = PAUSE_MS
    try {
      if ((await storage.indexSearchStep())?.more) wait = 0
      lastError = ''
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      // Once per distinct failure, not every few seconds while it lasts.
      if (message !== lastError) console.error('[search-index] a step failed; trying again every few seconds:', message)
      lastError = message
      wait = RETRY_MS
    }
    if (!stopped) timer = setTimeout(step, wait)
  }
  timer = setTimeout(step, 0)
  return {
    stop: () => {
      stopped = true
      if (timer) clearTimeout(timer)
    },
  }
}
