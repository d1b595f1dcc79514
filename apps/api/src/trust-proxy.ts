import type { FastifyServerOptions } from 'fastify'
import type { Config } from './config.js'

/**
 * TRUST_PROXY as Fastify takes it. Fastify 5 trusts nothing for a bare hop count (it cannot check the peer), so a
 * count becomes "the nearest n hops are our proxies": right when the api is reachable only through them, as deployed.
 */
export function fastifyTrustProxy(trustProxy: Config['trustProxy']): FastifyServerOptions['trustProxy'] {
  if (typeof trustProxy !== 'number') return trustProxy
  const hops = trustProxy
  return (_address: string, hop: number) => hop < hops
}
