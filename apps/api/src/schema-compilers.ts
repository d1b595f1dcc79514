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

/** Compiled functions of this process, by schema and compiler scope; each compiles on its first call. */
const compiled = new Map<string, LazyCompiled>()

interface LazyCompiled {
  fn: (...args: unknown[]) => unknown
  compile: () => unknown
}

/**
 * A function that compiles `compile()`'s result on its first call and then runs it. Ajv reports a failed validation
 * on the function itself (`errors`), which Fastify reads from the function it was given: the wrapper passes it on.
 */
function compiledOnFirstCall(compile: () => unknown): LazyCompiled {
  let inner: ((...args: unknown[]) => unknown) & { errors?: unknown }
  const get = () => (inner ??= compile() as typeof inner)
  const fn = function (this: unknown, ...args: unknown[]) {
    return get().apply(this, args)
  }
  Object.defineProperty(fn, 'errors', { get: () => inner?.errors, enumerable: true })
  return { fn, compile: get }
}

/**
 * Compiles each distinct schema once per process however many apps are built, and only when a request first needs it.
 * Compiling every route's validator and serializer was two thirds of building an app and a fifth of the api's start,
 * most of it for routes a process may never serve. The key is the schema's JSON (TypeBox's symbol keys are not seen by
 * Ajv either) with the compiler's options and shared schemas: one entry per schema in the code.
 */
export function compiledOncePerProcess(kind: string, build: BuildCompiler, refuse?: (route: RouteSchema) => void): BuildCompiler {
  return (externalSchemas, options) => {
    let compile: Compile | undefined
    const scope = `${kind}|${JSON.stringify(externalSchemas)}|${JSON.stringify(options)}`
    return (route) => {
      refuse?.(route)
      const key = `${scope}|${route.httpPart ?? ''}|${route.contentType ?? ''}|${JSON.stringify(route.schema)}`
      let entry = compiled.get(key)
      if (entry === undefined) {
        entry = compiledOnFirstCall(() => (compile ??= build(externalSchemas, options))(route))
        compiled.set(key, entry)
      }
      return entry.fn
    }
  }
}

/** Compiles every schema the apps of this process have registered so far: a schema that cannot compile throws here. */
export function compileAllSchemas(): void {
  for (const entry of compiled.values()) entry.compile()
}

type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>

/**
 * `schemaController.compilersFactory` for every app: Fastify's own compilers, shared by the apps of one process. (The
 * compilers' declared types take a bare schema; Fastify calls them with a route definition, as typed above.)
 */
export const sharedSchemaCompilers = {
  // With a compiler of our own Fastify no longer lower-cases a headers schema's names, so one would validate wrongly.
  buildValidator: compiledOncePerProcess('validator', validatorPool, (route) => {
    if (route.httpPart === 'headers') throw new Error('[api] a route validates headers: schema-compilers.ts must lower-case their names first')
  }),
  buildSerializer: compiledOncePerProcess('serializer', serializerPool),
} as unknown as CompilersFactory
