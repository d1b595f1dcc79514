import type { Config } from '../config.js'
import { AddressLimiter } from './in-process-address-limits.js'
import { MissCounter } from './in-process-miss-limits.js'
import { LoginFailureCounter } from './in-process-login-failures.js'
import { DailySalt } from './in-process-visitor-salts.js'
import { FixedLeadership } from './leadership.js'
import { NO_PEERS, type SharedState } from './shared-state.js'

/** Everything in this process: the one-process server and the tests. */
export function inProcessSharedState(
  config: Pick<Config, 'maxActiveAddressesPerIp' | 'maxGeneratedPerHourPerIp' | 'guessLimitPerMinute' | 'loginFailuresPerAccount'>,
): SharedState {
  return {
    addressLimits: new AddressLimiter(config.maxActiveAddressesPerIp, config.maxGeneratedPerHourPerIp),
    missLimits: new MissCounter(config.guessLimitPerMinute),
    loginFailures: new LoginFailureCounter(config.loginFailuresPerAccount),
    visitorSalts: new DailySalt(),
    peers: NO_PEERS,
    leadership: new FixedLeadership(true),
  }
}
