import { sharedAcrossNodes, type Db } from '@tempbox/db'
import type { Config } from '../config.js'
import { inProcessSharedState } from './in-process-state.js'
import { postgresSharedState } from './postgres-state.js'
import { NO_PEERS, type SharedState } from './shared-state.js'

/**
 * The one choice of where the shared state lives. A database every node reaches holds it for every process of every
 * node; the peers and stream places handed in (a cluster worker's, cluster-state.ts) still reach this host's other
 * workers. Otherwise the state handed in (a cluster worker's) or this process's own.
 */
export function openSharedState(
  db: Db,
  config: Config,
  handedIn: SharedState | undefined,
  onError: (message: string, err: unknown) => void,
): SharedState {
  if (sharedAcrossNodes(db)) return { ...postgresSharedState(db, config, handedIn?.peers ?? NO_PEERS, onError), streamPlaces: handedIn?.streamPlaces }
  return handedIn ?? inProcessSharedState(config)
}
