import { createServer, type Server } from 'node:http'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { createMcpServer } from './tools.js'
import type { McpConfig } from './config.js'

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost'])

/**
 * Streamable HTTP at `/mcp`, stateless: each POST gets a server and transport of its own, so nothing is kept between
 * calls (the tools hold no state either). On loopback, Host headers other than ours are refused (DNS rebinding).
 */
export async function startHttp(config: McpConfig, log: (line: string) => void): Promise<Server> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname
    const refuse = (status: number, message: string) => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }))
    }
    if (path !== '/mcp') return refuse(404, 'Not found: the MCP endpoint is /mcp.')
    if (req.method !== 'POST') return refuse(405, 'Method not allowed: this stateless server takes POST only.')
    const port = (server.address() as { port: number }).port
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      enableDnsRebindingProtection: LOOPBACK.has(config.host),
      allowedHosts: [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`],
    })
    const mcp = createMcpServer(config.tempboxUrl, config.maxTextChars)
    res.on('close', () => {
      void transport.close()
      void mcp.close()
    })
    mcp
      .connect(transport)
      .then(() => transport.handleRequest(req, res))
      .catch((error: unknown) => {
        log(`mcp: request failed: ${error instanceof Error ? error.stack : String(error)}`)
        if (!res.headersSent) refuse(500, 'Internal error.')
      })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(config.port, config.host, () => resolve())
  })
  return server
}
