import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import { spawn } from 'node:child_process'
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse as parseYaml } from 'yaml'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LISTENING, REPO_ROOT, reportedPort, startProcess, startStack, waitFor, type Stack } from '../support/stack.js'

/** Every fenced block of docs/developers.md, by the name after `tested=` in its info string. */
const doc = readFileSync(join(REPO_ROOT, 'docs/developers.md'), 'utf8')
const blocks = [...doc.matchAll(/^```(\S*)([^\n]*)\n([\s\S]*?)^```$/gm)].map(([, lang, info, body]) => ({
  lang: lang!,
  name: /\btested=(\S+)/.exec(info!)?.[1],
  body: body!,
}))
const block = (name: string) => blocks.find((b) => b.name === name)!.body

let stack: Stack

beforeAll(async () => {
  stack = await startStack({ env: { MAX_ACTIVE_ADDRESSES_PER_IP: '50' } })
})
afterAll(async () => {
  await stack?.stop()
})

type McpEntry = { command?: string; args?: string[]; env?: Record<string, string>; type?: string; url?: string }

/** Starts what a host would from the config entry, pointed at this checkout and stack, and makes an inbox with it. */
async function speakTo(entry: McpEntry): Promise<string> {
  const client = new Client({ name: 'docs-test', version: '1.0.0' })
  let stopServer = async () => {}
  if (entry.url) {
    const server = spawn('pnpm', ['--silent', 'mcp', '--http'], {
      cwd: REPO_ROOT,
      env: { ...process.env, TEMPBOX_URL: stack.apiUrl, MCP_PORT: '0' },
      stdio: ['ignore', 'ignore', 'pipe'],
      detached: true,
    })
    let output = ''
    server.stderr.on('data', (d: Buffer) => (output += d.toString()))
    const exited = new Promise((resolve) => server.once('exit', resolve))
    stopServer = async () => {
      process.kill(-server.pid!, 'SIGTERM')
      await exited
    }
    await waitFor(() => reportedPort(output, LISTENING.mcp) !== undefined, 60_000, 'the MCP server to listen')
    const url = new URL(entry.url)
    url.port = String(reportedPort(output, LISTENING.mcp))
    await client.connect(new StreamableHTTPClientTransport(url) as Transport)
  } else {
    const args = entry.args!.map((arg) => arg.replace('/path/to/tempbox', REPO_ROOT))
    const env = { ...(process.env as Record<string, string>), ...entry.env, TEMPBOX_URL: stack.apiUrl }
    await client.connect(new StdioClientTransport({ command: entry.command!, args, env, stderr: 'ignore' }))
  }
  try {
    const answer = (await client.callTool({ name: 'create_inbox', arguments: {} })) as { structuredContent?: { address?: string } }
    return answer.structuredContent!.address!
  } finally {
    await client.close()
    await stopServer()
  }
}

describe('docs/developers.md: every snippet runs', () => {
  it('marks every code block as tested, with a name this test knows', () => {
    expect(blocks.map((b) => b.name)).toEqual(['client', 'workflow', 'playwright', 'claude-desktop', 'claude-code', 'cursor', 'vscode'])
  })

  it('the client snippet runs against a real Tempbox and prints the code it read', async () => {
    // Inside tests/ so that its imports resolve as they would in a project depending on the client and nodemailer.
    const file = join(REPO_ROOT, 'tests', `.developer-docs-client-${process.pid}.ts`)
    writeFileSync(file, block('client'))
    try {
      const run = startProcess(file.slice(REPO_ROOT.length + 1), { TEMPBOX_URL: stack.apiUrl, SMTP_PORT: String(stack.smtpPort) })
      const code = await new Promise((resolve) => run.child.once('exit', resolve))
      expect(code, run.output()).toBe(0)
      expect(run.output()).toMatch(/^code 482913 from "Your code is 482913\." \(sender (pass|fail|none|unknown|checking)\)$/m)
      expect(run.output()).toMatch(/^message \d+: Your code is 482913\.$/m)
      expect(run.output()).toMatch(/^no message with a link matching \/\\\/confirm\/ arrived at \S+@tempbox\.test within 1000 ms$/m)
      expect(run.output()).toMatch(/^no message matching subject "Password reset" arrived at \S+@tempbox\.test within 1000 ms; 1 arrived that did not match \(subject\)$/m)
      expect(run.output()).toMatch(/^near miss "Welcome": subject$/m)
    } finally {
      rmSync(file, { force: true })
    }
  })

  it('the workflow parses, and each command it runs is a real script of this repository', async () => {
    const workflow = parseYaml(block('workflow')) as { jobs: Record<string, { steps: { uses?: string; run?: string }[] }> }
    const steps = Object.values(workflow.jobs).flatMap((job) => job.steps)
    const rootScripts = Object.keys((JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: object }).scripts)
    const commands = steps.flatMap((s) => (s.run ?? '').split('\n').map((line) => line.trim().replace(/^\(|&?\)$/g, '')).filter(Boolean))
    expect(commands.length).toBeGreaterThan(5)
    for (const command of commands) {
      const pnpm = /^pnpm --dir tempbox (\S+)/.exec(command)
      if (pnpm) {
        if (pnpm[1] !== 'install') expect(rootScripts, command).toContain(pnpm[1])
        continue
      }
      const installed = /^npm install \.\/tempbox\/(\S+)$/.exec(command)
      if (installed) {
        expect(existsSync(join(REPO_ROOT, installed[1]!, 'package.json')), command).toBe(true)
        continue
      }
      const health = /^curl .* (http:\/\/127\.0\.0\.1:3000)(\/\S+)$/.exec(command)
      if (health) {
        expect((await fetch(`${stack.apiUrl}${health[2]}`)).status, command).toBe(200)
        continue
      }
      // The project's own tests: theirs, not ours.
      expect(command).toBe('npm test')
    }
    expect(steps.filter((s) => s.uses).map((s) => s.uses!.split('@')[0])).toEqual([
      'actions/checkout',
      'actions/checkout',
      'pnpm/action-setup',
      'actions/setup-node',
    ])
  })

  it('the Playwright snippet is the spec tests/e2e/playwright-fixture.test.ts runs under the real runner', () => {
    const spec = readFileSync(join(REPO_ROOT, 'tests/e2e/playwright-fixture/signup.spec.ts'), 'utf8')
    expect(spec.startsWith(block('playwright'))).toBe(true)
  })

  for (const host of ['claude-desktop', 'claude-code', 'cursor', 'vscode']) {
    it(`the ${host} MCP config starts a server the SDK client makes an inbox with`, async () => {
      const config = JSON.parse(block(host)) as { mcpServers?: Record<string, McpEntry>; servers?: Record<string, McpEntry> }
      const entry = (config.mcpServers ?? config.servers)!.tempbox!
      expect(await speakTo(entry)).toMatch(/@tempbox\.test$/)
    })
  }
})
