import Fastify, { type FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { Config } from './config.js'
import dbPlugin from './plugins/db.js'
import errorHandler from './plugins/error-handler.js'
import healthRoutes from './routes/health.js'

declare module 'fastify' {
  interface FastifyInstance {
    config: Config
  }
}

/** Builds the HTTP app (plugins, then routes); never listens, so tests inject requests directly. */
export async function buildApp(config: Config): Promise<FastifyInstance> {
  const app = Fastify({
    logger: config.logLevel === 'silent' ? false : {
      level: config.logLevel,
      // No raw IP in production logs (privacy promise): only method and URL are logged.
      serializers: config.isProduction ? { req: (req) => ({ method: req.method, url: req.url }) } : undefined,
    },
    trustProxy: config.trustProxy,
    bodyLimit: 64 * 1024,
  }).withTypeProvider<TypeBoxTypeProvider>()

  app.decorate('config', config)
  await app.register(errorHandler)
  await app.register(dbPlugin, { path: config.databasePath })

  await app.register(
    async (api) => {
      await api.register(healthRoutes)
    },
    { prefix: '/api' },
  )
  return app
}
