import fp from 'fastify-plugin'
import type { FastifyError } from 'fastify'
import { AppError } from '../errors.js'

/** One error shape for every failure: `{error, code}` (+ `fields` for validation). 5xx never leak their message. */
export default fp(
  async (app) => {
    app.setErrorHandler((err: FastifyError | AppError, request, reply) => {
      if (err instanceof AppError) {
        return reply.status(err.statusCode).send({ error: err.message, code: err.code, ...(err.fields ? { fields: err.fields } : {}) })
      }
      if (err.validation) {
        const fields: Record<string, string> = {}
        for (const v of err.validation) {
          const path = (v.instancePath || '').replace(/^\//, '').replace(/\//g, '.')
          const missing = (v.params as { missingProperty?: string } | undefined)?.missingProperty
          const field = missing ?? (path || err.validationContext || 'request')
          fields[field] ??= describeValidation(field, plainRule(v) ?? v.message ?? 'is invalid')
        }
        const first = Object.values(fields)[0] ?? 'The request is invalid.'
        return reply.status(400).send({ error: first, code: 'validation_failed', fields })
      }
      const status = err.statusCode ?? 500
      if (status === 429) {
        return reply.status(429).send({ error: 'Too many requests. Please wait a moment and try again.', code: 'rate_limited' })
      }
      if (status >= 500) {
        request.log.error({ err }, '[http] unhandled error')
        return reply.status(status).send({ error: 'Something went wrong on our side. Please try again.', code: 'internal' })
      }
      return reply.status(status).send({ error: err.message, code: err.code ? String(err.code).toLowerCase() : 'bad_request' })
    })

    app.setNotFoundHandler((request, reply) => {
      reply.status(404).send({ error: `No route for ${request.method} ${request.url.split('?')[0]}.`, code: 'not_found' })
    })
  },
  { name: 'error-handler' },
)

/** Patterns of our schemas, said the way a person would. */
const PATTERN_WORDS: Record<string, string> = {
  '^[0-9]{1,15}$': 'must be a message id (digits only)',
}

/** The validator's rule in words for the common cases ("must be <= 200" reads as "must be at most 200"). */
function plainRule(v: { keyword: string; params?: unknown }): string | undefined {
  const params = (v.params ?? {}) as { limit?: unknown; type?: unknown; pattern?: unknown }
  if (v.keyword === 'minimum') return `must be at least ${String(params.limit)}`
  if (v.keyword === 'maximum') return `must be at most ${String(params.limit)}`
  if (v.keyword === 'type' && params.type === 'integer') return 'must be a whole number'
  if (v.keyword === 'pattern' && typeof params.pattern === 'string') return PATTERN_WORDS[params.pattern]
  return undefined
}

function describeValidation(field: string, message: string): string {
  const label = field.charAt(0).toUpperCase() + field.slice(1)
  if (message.startsWith('must have required property')) return `${label} is required.`
  return `${label} ${message.replace(/^must /, 'must ')}.`
}
