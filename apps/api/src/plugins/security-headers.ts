import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import fp from 'fastify-plugin'
import { securityHeaderSets } from '../services/site/security-header-sets.js'
import { inlineScriptHashes } from '../services/site/content-security-policy.js'

/** Types a browser renders as a document with our origin: they get the whole document set. */
const DOCUMENT_TYPE = /^\s*(text\/html|application\/xhtml\+xml|image\/svg\+xml|(text|application)\/xml)\b/i

/**
 * Security headers on every response, built once at start (services/site/security-header-sets.ts): the web app, its
 * files and Swagger UI get the document set; API answers (JSON, event streams, downloads) the short set that protects
 * them. A route's own headers win (the mail frame's policy, the attachments' sandbox), as does Swagger UI's policy.
 */
export default fp(
  async (app) => {
    const { webDistDir, hsts } = app.config
    const indexFile = webDistDir ? join(webDistDir, 'index.html') : null
    const hashes = indexFile && existsSync(indexFile) ? inlineScriptHashes(readFileSync(indexFile, 'utf8')) : []
    const { document, api, documentExtra } = securityHeaderSets(hashes, hsts)
    const extraNames = Object.keys(documentExtra)

    app.addHook('onRequest', (request, reply, done) => {
      const url = request.url
      reply.headers(url.startsWith('/api/') && !url.startsWith('/api/docs') ? api : document)
      done()
    })
    // An HTML document under /api (the mail frame) keeps the document headers it had before this split.
    app.addHook('onSend', (request, reply, payload, done) => {
      const type = reply.getHeader('content-type')
      if (typeof type === 'string' && DOCUMENT_TYPE.test(type)) {
        for (const name of extraNames) if (!reply.hasHeader(name)) reply.header(name, documentExtra[name]!)
      }
      done(null, payload)
    })
  },
  { name: 'security-headers' },
)
