import type { SharedState } from './shared-state.js'
import { IpcClient, processPort } from '../cluster/ipc.js'
import { FixedLeadership } from './leadership.js'
import { ROLE_ENV } from '../cluster/protocol.js'
import { ClusterAddressLimits } from './cluster-address-limits.js'
import { clusterRateLimitStore } from './cluster-rate-limit-store.js'
import { ClusterVisitorSalts } from './cluster-visitor-salts.js'

/** A cluster worker's global state: everything that must be one for the service is asked of the primary. */
export function clusterWorkerState(ipc: IpcClient = new IpcClient(processPort())): SharedState {
  return {
    addressLimits: new ClusterAddressLimits(ipc),
    missLimits: { miss: (scope, client, now) => ipc.request('misses.count', { scope, client, now }) },
    loginFailures: {
      blocked: (account, now) => ipc.request('loginFailures.blocked', { account, now }),
      fail: (account, now) => ipc.request('loginFailures.fail', { account, now }),
    },
    rateLimitStore: clusterRateLimitStore(ipc),
    visitorSalts: new ClusterVisitorSalts(ipc),
    peers: {
      messageDeleted: (inboxId, id) => ipc.request('peers.messageDeleted', { inboxId, id }),
      onMessageDeleted: (handler) => ipc.on('messageDeleted', ({ inboxId, id }) => handler(inboxId, id)),
      readStateChanged: (inboxId) => ipc.request('peers.readStateChanged', { inboxId }),
      onReadStateChanged: (handler) => ipc.on('readStateChanged', ({ inboxId }) => handler(inboxId)),
    },
    leadership: new FixedLeadership(process.env[ROLE_ENV] === 'sweeper'),
    streamPlaces: {
      take: (client) => ipc.request('streams.take', { client }),
      give: (client) => ipc.request('streams.give', { client }),
    },
  }
}
