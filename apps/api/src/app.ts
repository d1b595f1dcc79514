import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyServerOptions, type RawReplyDefaultExpression, type RawRequestDefaultExpression, type RawServerDefault } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { AccessLog } from './access-log.js'
import { lazyChildLogger } from './lazy-child-logger.js'
import { storageConfig, type Config } from './config.js'
import type { SharedState } from './service-state/shared-state.js'
import { openSharedState } from './service-state/open-shared-state.js'
import { clientKey } from '@tempbox/ip'
import { redactUrl } from './redact-url.js'
import { fastifyTrustProxy } from './trust-proxy.js'
import { answerCachedPollsFirst } from './poll-fast-path.js'
import { sharedSchemaCompilers } from './schema-compilers.js'
import rateLimit from '@fastify/rate-limit'
import dbPlugin from './plugins/db.js'
import errorHandler from './plugins/error-handler.js'
import securityHeaders from './plugins/security-headers.js'
import metricsPlugin from './plugins/metrics.js'
import healthRoutes from './routes/health.js'
import siteRoutes from './routes/site.js'
import webStatic from './plugins/web-static.js'
import swaggerPlugin from './plugins/swagger.js'
import services from './plugins/services.js'
import sweeper from './plugins/sweeper.js'
import webhooks from './plugins/webhooks.js'
import emailRoutes from './routes/email/index.js'
import geoipPlugin from './plugins/geoip.js'
import linkRoutes from './routes/links/index.js'
import ipRoutes from './routes/ip/index.js'
import shortRedirectRoutes from './routes/short/index.js'
import authPlugin from './plugins/auth.js'
import authRoutes from './routes/auth/index.js'
import ownerRoutes from './routes/auth/owner.js'
import contactRoutes from './routes/contact/index.js'
import analyticsRoutes from './routes/analytics/index.js'

declare module 'fastify' {
  interface FastifyInstance {
    config: Config
    sharedState: SharedState
  }
}

/** The app type every route plugin sees: default HTTP server, TypeBox schemas. */
export type App = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, TypeBoxTypeProvider>

/**
 * Builds the HTTP app (plugins, then routes); never listens, so tests inject requests directly.
 * `sharedState` is a cluster worker's, handed in; else this process's own, or on PostgreSQL the database's
 * (service-state/open-shared-state.ts). `logStream` takes the log lines instead of stdout (the tests read them there).
 */
export async function buildApp(config: Config, sharedState?: SharedState, { logStream }: { logStream?: { write: (line: string) => void } } = {}): Promise<App> {
  const options: FastifyServerOptions = {
    logger: config.logLevel === 'silent' ? false : {
      level: config.logLevel,
      // Production logs hold no raw IP, address, token or password (privacy promise): a request is its method and its
      // URL with addresses, IPs, codes and query values replaced; headers and bodies are never logged.
      serializers: config.isProduction ? { req: (req) => ({ method: req.method, url: redactUrl(req.url) }) } : undefined,
      stream: logStream,
    },
    logController: new AccessLog(config.logRequests),
    childLoggerFactory: lazyChildLogger,
    trustProxy: fastifyTrustProxy(config.trustProxy),
    bodyLimit: 64 * 1024,
    schemaController: { compilersFactory: sharedSchemaCompilers },
  }
  const app = Fastify(options).withTypeProvider<TypeBoxTypeProvider>()

  app.decorate('config', config)
  await app.register(errorHandler)
  await app.register(securityHeaders)
  await app.register(dbPlugin, { storage: storageConfig(config) })
  const state = openSharedState(app.db, config, sharedState, (message, err) => app.log.error({ err }, message))
  app.decorate('sharedState', state)
  await app.register(metricsPlugin)
  // Per-route limits only (`config.rateLimit` on a route); counters live in memory (the primary's, with several
  // processes; PostgreSQL's on that engine) and expire with their window.
  await app.register(rateLimit, {
    global: false,
    keyGenerator: (request) => clientKey(request.ip),
    ...(state.rateLimitStore ? { store: state.rateLimitStore } : {}),
  })
  await app.register(geoipPlugin, { preload: config.geoipPreload, cacheBytes: config.geoipCacheBytes })
  await app.register(authPlugin)

  // Before any route, so the OpenAPI document sees them all.
  await app.register(swaggerPlugin)
  await app.register(services)
  await app.register(sweeper)
  await app.register(webhooks)
  // The one-per-service jobs (the sweep, webhook deliveries) run while this process leads (service-state/leadership.ts).
  app.addHook('onReady', () => state.leadership.start())
  app.addHook('preClose', () => state.leadership.stop())

  await app.register(
    async (api) => {
      await api.register(healthRoutes)
      await api.register(siteRoutes)
      await api.register(emailRoutes)
      await api.register(linkRoutes)
      await api.register(ipRoutes)
      await api.register(authRoutes)
      await api.register(ownerRoutes)
      await api.register(contactRoutes)
      await api.register(analyticsRoutes)
    },
    { prefix: '/api' },
  )
  // Short links stay short (/s/{code}, outside /api) and come before the web app's catch-all.
  await app.register(shortRedirectRoutes)
  if (config.webDistDir) await app.register(webStatic, { root: config.webDistDir })
  // With access lines on, every request takes Fastify's path, where they are written.
  if (!config.logRequests) answerCachedPollsFirst(app)
  return app
}
