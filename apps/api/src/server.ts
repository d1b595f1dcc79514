import { loadConfig } from './config.js'
import { buildApp } from './app.js'

const config = loadConfig()
const app = await buildApp(config)
await app.listen({ host: config.host, port: config.port })

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    app.log.info(`[http] ${signal}: closing`)
    void app.close().then(() => process.exit(0))
  })
}
