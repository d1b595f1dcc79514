import type { GlobalState } from '../global-state.js'
import { IpcClient, processPort } from './ipc.js'
import { FixedLeadership } from '../services/jobs/leadership.js'
import { ROLE_ENV } from './protocol.js'
import { SharedAddressLimits } from './shared-address-limits.js'
import { sharedRateLimitStore } from './shared-rate-limit-store.js'
import { SharedVisitorSalts } from './shared-visitor-salts.js'

/** A cluster worker's global state: everything that must be one for the service is asked of the primary. */
export function workerGlobalState(ipc: IpcClient = new IpcClient(processPort())): GlobalState {
  return {
    addressLimits: new SharedAddressLimits(ipc),
    missLimits: { miss: (scope, client, now) => ipc.request('misses.count', { scope, client, now }) },
    loginFailures: {
      blocked: (account, now) => ipc.request('loginFailures.blocked', { account, now }),
      fail: (account, now) => ipc.request('loginFailures.fail', { account, now }),
    },
    rateLimitStore: sharedRateLimitStore(ipc),
    visitorSalts: new SharedVisitorSalts(ipc),
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
