export interface MetricsAddress {
  host: string
  /** 0 picks a free port (tests); the process prints the one it got. */
  port: number
}

type Env = Record<string, string | undefined>

/**
 * `METRICS_HOST` / `<portVariable>` as both servers read them. Loopback by default: scraping from elsewhere is a choice
 * the operator makes by setting the host. Problems are pushed to `problems`, as each config reports all at once.
 */
export function metricsAddress(env: Env, portVariable: string, defaultPort: number, problems: string[]): MetricsAddress {
  const raw = env[portVariable]
  let port = defaultPort
  if (raw !== undefined && raw !== '') {
    port = Number(raw)
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      problems.push(`${portVariable} must be a port number 0–65535 (got "${raw}")`)
      port = defaultPort
    }
  }
  return { host: env.METRICS_HOST || '127.0.0.1', port }
}
