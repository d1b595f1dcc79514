/** What each variable this app reads means, for docs/configuration.md (`pnpm docs:config` writes it with the code's defaults). */
export const MCP_ENV_DOCS: Record<string, { default?: string; meaning: string }> = {
  TEMPBOX_URL: { default: '`http://127.0.0.1:3000`', meaning: 'the Tempbox the MCP server\'s tools (and `@tempbox/playwright`\'s `inbox` fixture) use (see [developers.md](developers.md))' },
  MCP_PORT: { meaning: 'listen port of `pnpm mcp --http` (Streamable HTTP at `/mcp`)' },
  MCP_HOST: { default: '`127.0.0.1`', meaning: 'listen host of `pnpm mcp --http`; on loopback, requests naming another Host are refused' },
  MCP_MAX_TEXT_CHARS: { meaning: 'characters of a message\'s text one MCP tool answer carries (`textTruncated: true` beyond)' },
}
