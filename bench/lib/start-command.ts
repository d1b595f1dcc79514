import { readFileSync } from 'node:fs'
import { join } from 'node:path'

export interface StartCommand {
  /** Node flags before the entry, `--conditions=tempbox-compiled` among them. */
  nodeArgs: string[]
  /** Variables the script sets for node (`NAME=${NAME:-default}`: the default unless the bench runs with NAME set, as sh). */
  env: Record<string, string>
}

/**
 * An app's `pnpm start` (its package.json `start` script, `[NAME=value …] node [flags…] dist/<entry>.js`) as flags and
 * environment, so a benchmark starts the compiled app exactly as production does and follows the script when it changes.
 */
export function startCommand(repoRoot: string, app: 'api' | 'mail-ingest'): StartCommand {
  const script = (JSON.parse(readFileSync(join(repoRoot, `apps/${app}/package.json`), 'utf8')) as { scripts: { start: string } }).scripts.start
  const words = script.trim().split(/\s+/)
  const env: Record<string, string> = {}
  while (words[0] && /^[A-Z_][A-Z0-9_]*=/.test(words[0])) {
    const [name, value] = words.shift()!.split(/=(.*)/s) as [string, string]
    const fallback = /^\$\{(\w+):-(.*)\}$/.exec(value)
    env[name] = fallback ? process.env[fallback[1]!] || fallback[2]! : value
  }
  const entry = words.findIndex((w) => w.endsWith('.js'))
  if (words[0] !== 'node' || entry < 0) throw new Error(`apps/${app}'s start script is not "[NAME=value …] node [flags…] <entry>.js": ${script}`)
  return { nodeArgs: words.slice(1, entry), env }
}
