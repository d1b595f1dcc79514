import fp from 'fastify-plugin'

/**
 * Deletes expired addresses and their mail every `sweepIntervalMs` (reads never serve them even between sweeps).
 * With several API processes only one sweeps: the others would only repeat its deletes and contend for the write lock.
 */
export default fp(
  async (app) => {
    if (!app.globalState.runsSweeper) return
    const run = async () => {
      try {
        const removed = await app.inboxService.sweep()
        if (removed > 0) app.log.info(`[sweep] removed ${removed} expired address(es)`)
      } catch (err) {
        app.log.error({ err }, '[sweep] failed')
      }
    }
    let timer: NodeJS.Timeout | null = null
    app.addHook('onReady', async () => {
      await run()
      timer = setInterval(() => void run(), app.config.sweepIntervalMs)
      timer.unref()
    })
    app.addHook('onClose', async () => {
      if (timer) clearInterval(timer)
    })
  },
  { name: 'sweeper', dependencies: ['services'] },
)
