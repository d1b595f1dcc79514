import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { loadConfig } from './config.js'
import { startHttp } from './http-server.js'
import { createMcpServer } from './tools.js'

// stdout carries the protocol alone (on stdio): every line of ours goes to stderr.
const log = (line: string) => process.stderr.write(`${line}\n`)

async function main(): Promise<void> {
  const config = loadConfig()
  if (process.argv.includes('--http')) {
    const server = await startHttp(config, log)
    const { address, port } = server.address() as { address: string; port: number }
    log(`tempbox mcp: Streamable HTTP on http://${address.includes(':') ? `[${address}]` : address}:${port}/mcp, Tempbox at ${config.tempboxUrl}`)
    const stop = () => server.close(() => process.exit(0))
    process.once('SIGTERM', stop)
    process.once('SIGINT', stop)
    return
  }
  await createMcpServer(config.tempboxUrl, config.maxTextChars).connect(new StdioServerTransport())
  // The host closing our stdin is the end of the session: waits in flight are not worth a lingering process.
  process.stdin.once('end', () => process.exit(0))
  log(`tempbox mcp: on stdio, Tempbox at ${config.tempboxUrl}`)
}

main().catch((error: unknown) => {
  log(`tempbox mcp: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
})
