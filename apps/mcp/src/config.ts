/** Settings from the environment; a wrong value stops the start with a sentence naming it. */
export interface McpConfig {
  tempboxUrl: string
  port: number
  host: string
  maxTextChars: number
}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  const value = Number(raw)
  if (!Number.isInteger(value) || value < min || value > max) throw new Error(`${name} must be a whole number from ${min} to ${max}, not "${raw}".`)
  return value
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): McpConfig {
  const tempboxUrl = env.TEMPBOX_URL || 'http://127.0.0.1:3000'
  if (!/^https?:\/\/[^/]/.test(tempboxUrl)) throw new Error(`TEMPBOX_URL must be an http(s) URL, not "${tempboxUrl}".`)
  return {
    tempboxUrl,
    port: int(env, 'MCP_PORT', 3333, 0, 65_535),
    host: env.MCP_HOST || '127.0.0.1',
    // A message's text goes into the agent's context: past this it is cut, and the answer says so.
    maxTextChars: int(env, 'MCP_MAX_TEXT_CHARS', 20_000, 100, 1_000_000),
  }
}
