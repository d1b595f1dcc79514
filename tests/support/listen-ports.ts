import { startProcess, untilReady, type RunningProcess } from './child-process.js'

/**
 * The lines the apps print once a listener is bound; the group is the port. The apps are started on port 0 and
 * these say which port each listener got: a port picked by the test and freed before the child bound it could be
 * taken meanwhile by a process of another test file.
 */
export const LISTENING = {
  /** Fastify's, at the api's LOG_LEVEL=info (one per worker with API_PROCESSES > 1, on the port they share). */
  http: /Server listening at http:\/\/[^\s"]+:(\d+)/,
  /** The api's (primary's, with workers) and mail-ingest's `/metrics` listener. */
  metrics: /\[metrics\] listening on [^\s"]+:(\d+)/,
  smtp: /\[smtp\] listening on [^\s"]+:(\d+)/,
  /** `pnpm mcp --http`. */
  mcp: /Streamable HTTP on http:\/\/[^\s"]+:(\d+)\/mcp/,
} as const

/** The port the first line matching `pattern` names in `output`, or undefined until the line is printed. */
export function reportedPort(output: string, pattern: RegExp): number | undefined {
  const match = pattern.exec(output)
  return match ? Number(match[1]) : undefined
}

/** A child and the ports its listeners reported, by the names given to `startListening`. */
export interface Listening<Name extends string> {
  proc: RunningProcess
  ports: Record<Name, number>
}

/**
 * Starts `entry` and waits until it has printed a line for each of `listeners`, then until `ready` (given the ports)
 * holds. Its environment should ask for port 0 (or, on a restart, the ports it had).
 */
export async function startListening<Name extends string>(
  entry: string,
  env: Record<string, string>,
  run: { compiled?: boolean; nodeArgs?: string[] },
  listeners: Record<Name, RegExp>,
  ready: (ports: Record<Name, number>) => Promise<boolean> | boolean,
  timeoutMs: number,
  what: string,
): Promise<Listening<Name>> {
  const proc = startProcess(entry, env, run)
  const ports = {} as Record<Name, number>
  const names = Object.keys(listeners) as Name[]
  await untilReady(proc, () => {
    for (const name of names) {
      const port = ports[name] ?? reportedPort(proc.output(), listeners[name])
      if (port !== undefined) ports[name] = port
    }
    return names.every((name) => ports[name] !== undefined) && ready(ports)
  }, timeoutMs, what)
  return { proc, ports }
}
