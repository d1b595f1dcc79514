import fp from 'fastify-plugin'
import { createGeoipService, defaultGeoipPaths, type GeoipService } from '../services/geoip/geoip-service.js'

declare module 'fastify' {
  interface FastifyInstance {
    /** Local IP geolocation (DB-IP city + ASN data from npm); opened once, on first lookup or at start when preloading. */
    geoip: GeoipService
  }
}

/**
 * One shared lookup for the whole app, opened lazily so tests and short-lived processes that never locate an IP don't
 * pay for the ASN table; production opens it in the background. The city files are read on demand, never whole.
 */
export default fp(
  async (app, opts: { preload: boolean; cacheBytes: number }) => {
    const geoip = createGeoipService(defaultGeoipPaths(), { cacheBytes: opts.cacheBytes })
    app.decorate('geoip', geoip)
    app.addHook('onClose', () => geoip.close())
    if (opts.preload) {
      app.addHook('onReady', async () => {
        geoip.load().catch((err: unknown) => app.log.error({ err }, '[geoip] could not load the IP databases'))
      })
    }
  },
  { name: 'geoip' },
)
