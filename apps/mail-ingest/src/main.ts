import { openStorage } from '@tempbox/db'
import { serveMetrics } from '@tempbox/metrics'
import { loadConfig, storageConfig } from './config.js'
import { startHeartbeat } from './heartbeat.js'
import { migrateWhenPending } from './migrate-apart.js'
import { createSmtpServer } from './smtp-server.js'
import { semiSpaceFlag, youngGenerationWarnings } from './young-generation.js'

const config = loadConfig()
for (const warning of youngGenerationWarnings(process.env, semiSpaceFlag(process.execArgv))) console.warn(warning)
const storage = openStorage(storageConfig(config))
await migrateWhenPending(storage.db, storageConfig(config, { poolSize: 1 }))
const ingest = createSmtpServer({ storage, config })
const port = await ingest.listen()
const heartbeat = startHeartbeat(storage.db, config.heartbeatMs)
await heartbeat.first
console.log(`[smtp] listening on ${config.host}:${port} for ${config.mailDomains.join(', ')}`)
console.log(ingest.tlsStatus)
const metrics = await serveMetrics({
  ...config.metrics,
  render: async () => ({ contentType: ingest.metrics.registry.contentType, body: await ingest.metrics.registry.metrics() }),
  onError: (error) => console.error('[metrics] collecting failed:', error),
})
console.log(`[metrics] listening on ${config.metrics.host}:${metrics.port}`)

let isStopping = false
const stop = async (signal: string) => {
  if (isStopping) return
  isStopping = true
  console.log(`[smtp] ${signal} received, closing`)
  heartbeat.stop()
  await ingest.close()
  await metrics.close()
  await storage.close()
  process.exit(0)
}
process.on('SIGTERM', () => void stop('SIGTERM'))
process.on('SIGINT', () => void stop('SIGINT'))
