import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import fp from 'fastify-plugin'
import helmet from '@fastify/helmet'
import { appCspDirectives, inlineScriptHashes } from '../services/site/content-security-policy.js'

/** 180 days: long enough to matter, short enough to recover from a mistaken domain. */
const HSTS_MAX_AGE_SECONDS = 180 * 24 * 3600

/**
 * Security headers on every response: the app's Content-Security-Policy (scripts from our origin plus the hash of
 * index.html's inline theme script), no framing, nosniff, no referrer, and HSTS when TLS is in front of us.
 * Swagger UI replaces the policy with its own on its routes (plugins/swagger.ts).
 */
export default fp(
  async (app) => {
    const { webDistDir, hsts } = app.config
    const indexFile = webDistDir ? join(webDistDir, 'index.html') : null
    const hashes = indexFile && existsSync(indexFile) ? inlineScriptHashes(readFileSync(indexFile, 'utf8')) : []
    await app.register(helmet, {
      contentSecurityPolicy: { useDefaults: false, directives: appCspDirectives(hashes) },
      xFrameOptions: { action: 'deny' },
      referrerPolicy: { policy: 'no-referrer' },
      strictTransportSecurity: hsts ? { maxAge: HSTS_MAX_AGE_SECONDS, includeSubDomains: false } : false,
      // Helmet's other defaults stay: nosniff, Cross-Origin-Opener/Resource-Policy same-origin, X-XSS-Protection 0, …
    })
  },
  { name: 'security-headers' },
)
