import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface MetricsServerOptions {
  host: string
  port: number
  /** The exposition text and its content type, built at each scrape. */
  render: () => Promise<{ contentType: string; body: string }>
  onError?: (error: unknown) => void
}

export interface MetricsServer {
  /** The bound port (useful with port 0). */
  port: number
  close: () => Promise<void>
}

/**
 * `GET /metrics` on a listener of its own, apart from the public HTTP and SMTP ports: what is served there (queue
 * depths, traffic) is for operators, and a separate address (loopback by default) keeps it from being public by accident.
 */
export async function serveMetrics({ host, port, render, onError }: MetricsServerOptions): Promise<MetricsServer> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0]
    if (req.method !== 'GET' || path !== '/metrics') {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Only GET /metrics is served here.\n')
      return
    }
    render().then(
      ({ contentType, body }) => res.writeHead(200, { 'Content-Type': contentType, 'Cache-Control': 'no-store' }).end(body),
      (error: unknown) => {
        onError?.(error)
        res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Collecting the metrics failed.\n')
      },
    )
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
