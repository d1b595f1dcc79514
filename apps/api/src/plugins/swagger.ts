import fp from 'fastify-plugin'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import { DOCS_CSP, serializeCsp } from '../services/site/content-security-policy.js'

/** OpenAPI built from the route schemas (the same TypeBox schemas that validate); UI at /api/docs. */
export default fp(
  async (app) => {
    await app.register(swagger, {
      openapi: {
        openapi: '3.0.3',
        info: {
          title: 'Tempbox API',
          version: '1.0.0',
          description:
            'Temporary email addresses over HTTP: generate an address, point any SMTP client at our server, then read, ' +
            'wait for, or stream what arrives. Errors are JSON `{error, code}` where `error` is a sentence a person reads.',
        },
        tags: [
          { name: 'email', description: 'Temporary addresses and their mail' },
          { name: 'webhooks', description: 'Signed POSTs of each new message of an address, retried for up to 24 hours' },
          { name: 'health', description: 'Liveness and readiness (database, mail ingest, change feed)' },
          { name: 'site', description: 'Public settings of this deployment (contact addresses)' },
        ],
        // Routes that need a signed-in account declare `security: [{ bearer: [] }]`.
        components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      },
    })
    // Its routes answer under their own policy (set last, over the app's): Swagger UI needs inline styles only.
    await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: serializeCsp(DOCS_CSP) })
  },
  { name: 'swagger' },
)
