import type { StoredVerdict } from '@tempbox/db'
import { asBuffer } from '../worker-rpc.js'
import { checkMessage } from './check.js'
import type { MailAuthConfig } from './config.js'
import { createCachingResolver, readFixtureResolver } from './dns.js'
import { createAuthQueue, type AuthJob } from './queue.js'
import { memoizeUnsigned } from './unsigned-memo.js'
import { createVerdictWriter } from './verdict-writer.js'

/** Unsigned senders whose verdict is kept for reuse. */
const MAX_REMEMBERED_SENDERS = 1_000

export interface SenderCheck {
  push: (job: AuthJob) => void
  /** Answers everything not yet checked as unknown; resolves once every verdict so far is handed to `writeVerdicts`. */
  abandon: () => Promise<void>
}

/**
 * The sender check of committed messages, on whichever thread runs it (the store worker, or a worker of its own when
 * messages are stored on the SMTP thread): a bounded queue of checks, verdicts batched for `writeVerdicts`.
 */
export function createSenderCheck(
  config: MailAuthConfig,
  mta: string,
  writeVerdicts: (verdicts: [contentId: number, verdict: StoredVerdict][], at: number) => Promise<void>,
): SenderCheck {
  const writer = createVerdictWriter(writeVerdicts)
  const resolver = config.dnsFixturePath
    ? readFixtureResolver(config.dnsFixturePath)
    : createCachingResolver({ timeoutMs: config.dnsTimeoutMs, maxEntries: config.dnsCacheEntries, ttlMs: config.dnsCacheTtlMs })
  // A verdict is reused no longer than the DNS answers it rests on are cached.
  const check = memoizeUnsigned((raw, envelope) => checkMessage(raw, envelope, { resolver, mta, maxHeaderBytes: config.maxHeaderBytes }), {
    maxEntries: Math.min(config.dnsCacheEntries, MAX_REMEMBERED_SENDERS),
    ttlMs: config.dnsCacheTtlMs,
  })
  const queue = createAuthQueue({
    check: (job) => check(asBuffer(job.raw), job.envelope),
    concurrency: config.concurrency,
    maxQueued: config.maxQueued,
    maxQueuedBytes: config.maxQueuedBytes,
    timeoutMs: config.timeoutMs,
    onVerdict: writer.write,
  })
  return {
    push: (job) => queue.push(job),
    abandon: () => {
      queue.abandon()
      return writer.flush()
    },
  }
}
