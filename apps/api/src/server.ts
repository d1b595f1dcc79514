import cluster from 'node:cluster'
import { serveMetrics, type MetricsServer } from '@tempbox/metrics'
import { loadConfig } from './config.js'

// In multi-process mode the primary loads the configuration first, so local secrets are generated once, before any
// worker reads them.
const config = loadConfig()
/** How long a stopping server waits for open connections before cutting them. */
const CLOSE_GRACE_MS = 5_000

if (config.apiProcesses > 1 && cluster.isPrimary) {
  const { runPrimary } = await import('./cluster/primary.js')
  await runPrimary(config)
} else {
  const { buildApp } = await import('./app.js')
  const sharedState = cluster.isWorker ? (await import('./service-state/cluster-state.js')).clusterWorkerState() : undefined
  const app = await buildApp(config, sharedState)
  await app.listen({ host: config.host, port: config.port })
  let metricsServer: MetricsServer | null = null
  if (cluster.isWorker) {
    ;(await import('./cluster/metrics.js')).shareWorkerMetrics(app.metrics.registry)
  } else {
    // With several processes the primary prints it, once.
    const { setupKeyNotice } = await import('./services/accounts/setup-service.js')
    const notice = await setupKeyNotice(app.db, config)
    if (notice) app.log.warn(notice)
    const { registry } = app.metrics
    metricsServer = await serveMetrics({
      ...config.metrics,
      render: async () => ({ contentType: registry.contentType, body: await registry.metrics() }),
      onError: (err) => app.log.error({ err }, '[metrics] collecting failed'),
    })
    app.log.info(`[metrics] listening on ${config.metrics.host}:${metricsServer.port}`)
  }

  let closing = false
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    const close = () => {
      if (closing) return
      closing = true
      app.log.info(`[http] ${signal}: closing`)
      // Requests in flight get time to finish; a client holding a connection open without a request (which
      // Fastify's idle-connection sweep does not count as idle) must not keep the process alive for good.
      setTimeout(() => app.server.closeAllConnections(), CLOSE_GRACE_MS).unref()
      void Promise.all([app.close(), metricsServer?.close()]).then(() => process.exit(0))
    }
    // A worker gets Ctrl-C from the terminal and again from its primary: the second must not kill it mid-close. Alone,
    // a second signal still ends the process at once.
    if (cluster.isWorker) process.on(signal, close)
    else process.once(signal, close)
  }
}
