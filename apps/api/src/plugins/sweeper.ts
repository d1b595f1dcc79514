import fp from 'fastify-plugin'
import { purgeIssuedAddresses } from '@tempbox/db'
import { deleteExpiredSessions } from '../repositories/session-repository.js'

/**
 * Deletes expired addresses and their mail every `sweepIntervalMs` (reads never serve them even between sweeps), and
 * the shared state's expired entries where they live in the database. One process of the whole service sweeps (see
 * Leadership): the others would only repeat its deletes and contend for the write lock.
 */
export default fp(
  async (app) => {
    const { sharedState } = app
    const run = async () => {
      try {
        const now = Date.now()
        const removed = await app.inboxService.sweep(now)
        if (removed > 0) app.log.info(`[sweep] removed ${removed} expired address(es)`)
        await sharedState.expire?.(now)
        await deleteExpiredSessions(app.db, now)
        await purgeIssuedAddresses(app.db, now)
      } catch (err) {
        app.log.error({ err }, '[sweep] failed')
      }
    }
    let timer: NodeJS.Timeout | null = null
    let running: Promise<void> | null = null
    const tick = () => {
      if (!running) running = run().finally(() => (running = null))
      return running
    }
    sharedState.leadership.whileLeading({
      start: async () => {
        await tick()
        timer = setInterval(() => void tick(), app.config.sweepIntervalMs)
        timer.unref()
      },
      // A sweep under way finishes before another node may begin one.
      stop: async () => {
        if (timer) clearInterval(timer)
        timer = null
        await running
      },
    })
  },
  { name: 'sweeper', dependencies: ['services'] },
)
