import { afterEach, describe, expect, it } from 'vitest'
import { Type } from 'typebox'
import { compileAllSchemas, compiledOncePerProcess, sharedSchemaCompilers } from '../src/schema-compilers.js'
import { buildTestApp } from './helper.js'
import type { App } from '../src/app.js'

type Validate = ((data: unknown) => boolean) & { errors?: unknown[] | null }
type Serialize = (data: unknown) => string
// What Fastify does with the factories: one compiler per app (its shared schemas and options), then one call per route part.
const validatorOf = (schema: unknown, httpPart = 'body') =>
  (sharedSchemaCompilers.buildValidator as unknown as (e: unknown, o: unknown) => (r: object) => Validate)({}, { customOptions: {} })({ schema, httpPart, method: 'POST', url: '/x' })
const serializerOf = (schema: unknown) =>
  (sharedSchemaCompilers.buildSerializer as unknown as (e: unknown, o: unknown) => (r: object) => Serialize)({}, undefined)({ schema, httpStatus: '200', method: 'GET', url: '/x' })

describe('route schemas compiled once per process', () => {
  let apps: App[] = []
  afterEach(async () => {
    await Promise.all(apps.map((app) => app.close()))
    apps = []
  })

  it('gives every app the same validator and serializer for an equal schema, built anew or not', () => {
    const body = () => Type.Object({ name: Type.String({ maxLength: 3 }) }, { additionalProperties: false })
    const validate = validatorOf(body())
    expect(validatorOf(body())).toBe(validate)
    expect(validate({ name: 'abc' })).toBe(true)
    expect(validate({ name: 'abcd' })).toBe(false)
    expect(validatorOf(Type.Object({ name: Type.String({ maxLength: 4 }) }))).not.toBe(validate)
    expect(validatorOf(body(), 'querystring')).not.toBe(validate)

    const reply = () => Type.Object({ id: Type.Integer(), secret: Type.Optional(Type.String()) })
    const serialize = serializerOf(Type.Object({ id: Type.Integer() }))
    expect(serializerOf(Type.Object({ id: Type.Integer() }))).toBe(serialize)
    expect(serialize({ id: 7, secret: 'not in the schema' })).toBe('{"id":7}')
    expect(serializerOf(reply())({ id: 7, secret: 's' })).toBe('{"id":7,"secret":"s"}')
  })

  it('compiles a schema when a request first needs it, once, and passes on what the validator reports', () => {
    const compiles: unknown[] = []
    const compilerOf = compiledOncePerProcess('counting', () => (route) => {
      compiles.push(route.schema)
      return (data: unknown) => data === 'yes'
    })
    const check = compilerOf({}, {})({ schema: { const: 'counted' } }) as (data: unknown) => boolean
    expect(compiles).toEqual([])
    expect([check('yes'), check('no')]).toEqual([true, false])
    expect(compiles).toEqual([{ const: 'counted' }])

    const validate = validatorOf(Type.Object({ name: Type.String({ maxLength: 3 }) }))
    expect(validate({ name: 'abcd' })).toBe(false)
    expect(validate.errors).toMatchObject([{ instancePath: '/name', keyword: 'maxLength' }])
    expect(validate({ name: 'abc' })).toBe(true)
    expect(validate.errors).toBeNull()
  })

  it('compiles every schema of every route of the app', async () => {
    apps = [await buildTestApp()]
    expect(() => compileAllSchemas()).not.toThrow()
  })

  it('refuses a headers schema, whose names Fastify would no longer lower-case', () => {
    expect(() => validatorOf(Type.Object({ 'X-Token': Type.String() }), 'headers')).toThrow(/validates headers/)
  })

  it('answers bad input the same in a second app of the process as in the first', async () => {
    apps = [await buildTestApp(), await buildTestApp()]
    for (const app of apps) {
      const res = await app.inject({ method: 'POST', url: '/api/email/generate', payload: { burnAfterRead: true, burnAfterMinutes: 10 } })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toMatchObject({ code: 'validation_failed' })
      const long = await app.inject({ method: 'POST', url: '/api/email/generate', payload: { burnAfterMinutes: 'soon' } })
      expect(long.statusCode).toBe(400)
      expect(long.json()).toMatchObject({ error: expect.any(String), code: expect.any(String) })
    }
  })
})
