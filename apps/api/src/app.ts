import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyServerOptions, type RawReplyDefaultExpression, type RawRequestDefaultExpression, type RawServerDefault } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { Config } from './config.js'
import rateLimit from '@fastify/rate-limit'
import dbPlugin from './plugins/db.js'
import errorHandler from './plugins/error-handler.js'
import healthRoutes from './routes/health.js'
import webStatic from './plugins/web-static.js'
import geoipPlugin from './plugins/geoip.js'

declare module 'fastify' {
  interface FastifyInstance {
    config: Config
  }
}

/** Builds the HTTP app (plugins, then routes); never listens, so tests inject requests directly. */
/** The app type every route plugin sees: default HTTP server, TypeBox schemas. */
export type App = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, TypeBoxTypeProvider>

export async function buildApp(config: Config): Promise<App> {
  const options: FastifyServerOptions = {
    logger: config.logLevel === 'silent' ? false : {
      level: config.logLevel,
      // No raw IP in production logs (privacy promise): only method and URL are logged.
      serializers: config.isProduction ? { req: (req) => ({ method: req.method, url: req.url }) } : undefined,
    },
    // Fastify accepts a hop count at runtime though its types omit it.
    trustProxy: config.trustProxy as FastifyServerOptions['trustProxy'],
    bodyLimit: 64 * 1024,
  }
  const app = Fastify(options).withTypeProvider<TypeBoxTypeProvider>()

  app.decorate('config', config)
  await app.register(errorHandler)
  await app.register(dbPlugin, { path: config.databasePath })
  // Per-route limits only (`config.rateLimit` on a route); counters live in memory and expire with their window.
  await app.register(rateLimit, { global: false })
  await app.register(geoipPlugin, { preload: config.geoipPreload })

  await app.register(
    async (api) => {
      await api.register(healthRoutes)
    },
    { prefix: '/api' },
  )
  if (config.webDistDir) await app.register(webStatic, { root: config.webDistDir })
  return app
}
