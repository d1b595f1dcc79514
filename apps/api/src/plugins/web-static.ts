import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import fp from 'fastify-plugin'
import fastifyStatic from '@fastify/static'

/**
 * Serves the built web app. Any GET that is not an API call and not a file gets index.html,
 * so deep links and reloads work on every client route; unknown /api paths still answer JSON 404.
 */
export default fp(
  async (app, opts: { root: string }) => {
    const indexHtml = readFileSync(join(opts.root, 'index.html'), 'utf8')
    await app.register(fastifyStatic, {
      root: opts.root,
      wildcard: false,
      index: false,
      // The web build writes .br and .gz copies of its scripts and styles (precompress-assets.ts): the one the browser
      // accepts is sent, with Vary: Accept-Encoding; a file without copies goes out as it is.
      preCompressed: true,
      setHeaders: (reply: { header: (k: string, v: string) => unknown }, path: string) => {
        // Hashed assets never change; index.html must always be revalidated.
        if (path.includes('/assets/')) reply.header('Cache-Control', 'public, max-age=31536000, immutable')
      },
    })
    app.get('/*', (request, reply) => {
      const url = request.url.split('?')[0] ?? '/'
      if (url.startsWith('/api/') || url === '/api') {
        return reply.status(404).send({ error: `No route for GET ${url}.`, code: 'not_found' })
      }
      const file = url.slice(1)
      if (file && !file.endsWith('/') && /\.[a-z0-9]+$/i.test(file)) {
        return reply.sendFile(file, { cacheControl: false })
      }
      return reply.header('Cache-Control', 'no-cache').type('text/html; charset=utf-8').send(indexHtml)
    })
  },
  { name: 'web-static' },
)
