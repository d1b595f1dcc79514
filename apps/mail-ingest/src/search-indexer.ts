import type { Storage } from '@tempbox/db'

/** How long an idle indexer waits before looking again: mail stored meanwhile is searched by reading its copy. */
export const IDLE_MS = 200
/**
 * A step that found fewer copies than this waits BATCH_MS for more: FTS5 pays per transaction too, and a 2 KB copy
 * cost 60-74 µs of CPU in steps of 8 against 42-51 in steps of 32 or more. A full step goes on at once.
 */
export const STEP_ROWS = 32
export const BATCH_MS = 20
/** After a failed step (the file locked past its busy timeout, a full disk): the index is derived, mail goes on. */
const RETRY_MS = 5_000

/**
 * Fills the search index an engine keeps apart from the message commits (SQLite: the index file beside the database):
 * steps back to back while there is a backlog (BATCH_MS apart while the steps are small), then a look every IDLE_MS for
 * new mail and for deletions. Runs on a thread of its own (search-index-worker.ts; the SMTP thread with
 * SMTP_PARSE_WORKERS=0); null when the engine keeps its index itself.
 */
export function startSearchIndexer(storage: Pick<Storage, 'indexesSearchApart' | 'indexSearchStep'>): { stop: () => void } | null {
  if (!storage.indexesSearchApart) return null
  let timer: NodeJS.Timeout | null = null
  let stopped = false
  let lastError = ''
  const step = async () => {
    timer = null
    let wait = IDLE_MS
    try {
      const handled = await storage.indexSearchStep()
      if (handled) wait = handled >= STEP_ROWS ? 0 : BATCH_MS
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
