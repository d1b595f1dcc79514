/**
 * Worker thread that fills SQLite's search index (the file beside the database) from the copies the store worker
 * commits. Apart from the store worker, which every message waits for: for long texts the index costs more than the
 * commit itself (issue 29). It loads better-sqlite3 and the indexer alone, not Kysely nor the storage, so its isolate
 * stays small.
 */
import { workerData } from 'node:worker_threads'
import { openSearchIndexer } from '@tempbox/db/search-indexer'
import { startSearchIndexer } from './search-indexer.js'
import { signalReady } from './worker-rpc.js'

const indexer = openSearchIndexer((workerData as { databasePath: string }).databasePath)
if (indexer) startSearchIndexer({ indexesSearchApart: true, indexSearchStep: async () => indexer.step() })
signalReady()
