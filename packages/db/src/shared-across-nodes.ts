import type { Db } from './create-db.js'
import { engineOf } from './postgres-db.js'

/**
 * Whether state that must be one for the whole service can live in this database: PostgreSQL is reached by every API
 * node alike; a SQLite file belongs to one host, whose processes share state through the cluster's primary instead.
 */
export function sharedAcrossNodes(db: Db): boolean {
  return engineOf(db) === 'postgres'
}
