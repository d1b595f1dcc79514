import { createRequire } from 'node:module'
import type { FastifyServerOptions } from 'fastify'

interface RouteSchema {
  schema: unknown
  httpPart?: string
  contentType?: string
}
type Compile = (route: RouteSchema) => unknown
type BuildCompiler = (externalSchemas: unknown, options: unknown) => Compile

// The compilers Fastify itself loads, from where it loads them, so that they can never differ from its own.
const fromFastify = createRequire(createRequire(import.meta.url).resolve('fastify'))
const validatorPool = (fromFastify('@fastify/ajv-compiler') as () => BuildCompiler)()
const serializerPool = (fromFastify('@fastify/fast-json-stringify-compiler') as () => BuildCompiler)()

/**
 * Compiles each distinct schema once per process however many apps are built: compiling every route's validator and
 * serializer was two thirds of building an app, which the test suites do hundreds of times per process. The key is
 * the schema's JSON (TypeBox's symbol keys are not seen by Ajv either) with the compiler's options and shared schemas;
 * the map holds one entry per schema in the code, as many as a single app compiles.
 */
function compiledOncePerProcess(build: BuildCompiler, refuse?: (route: RouteSchema) => void): BuildCompiler {
  const compiled = new Map<string, unknown>()
  return (externalSchemas, options) => {
    const compile = build(externalSchemas, options)
    const scope = `${JSON.stringify(externalSchemas)}|${JSON.stringify(options)}`
    return (route) => {
      refuse?.(route)
      const key = `${scope}|${route.httpPart ?? ''}|${route.contentType ?? ''}|${JSON.stringify(route.schema)}`
      let fn = compiled.get(key)
      if (fn === undefined) {
        fn = compile(route)
        compiled.set(key, fn)
      }
      return fn
    }
  }
}

type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>

/**
 * `schemaController.compilersFactory` for every app: Fastify's own compilers, shared by the apps of one process. (The
 * compilers' declared types take a bare schema; Fastify calls them with a route definition, as typed above.)
 */
export const sharedSchemaCompilers = {
  // With a compiler of our own Fastify no longer lower-cases a headers schema's names, so one would validate wrongly.
  buildValidator: compiledOncePerProcess(validatorPool, (route) => {
    if (route.httpPart === 'headers') throw new Error('[api] a route validates headers: schema-compilers.ts must lower-case their names first')
  }),
  buildSerializer: compiledOncePerProcess(serializerPool),
} as unknown as CompilersFactory
