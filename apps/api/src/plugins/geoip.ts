import fp from 'fastify-plugin'
import { createGeoipService, type GeoipService } from '../services/geoip/geoip-service.js'

declare module 'fastify' {
  interface FastifyInstance {
    /** Local IP geolocation (DB-IP city + ASN data from npm); loaded once, on first lookup or at start when preloading. */
    geoip: GeoipService
  }
}

/**
 * One shared lookup for the whole app. The ~200 MB of data is read lazily so tests and
 * short-lived processes that never locate an IP don't pay for it; production warms it in the background.
 */
export default fp(
  async (app, opts: { preload: boolean }) => {
    const geoip = createGeoipService()
    app.decorate('geoip', geoip)
    if (opts.preload) {
      app.addHook('onReady', async () => {
        geoip.load().catch((err: unknown) => app.log.error({ err }, '[geoip] could not load the IP databases'))
      })
    }
  },
  { name: 'geoip' },
)
