import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import { spawn, type ChildProcess } from 'node:child_process'
import { request } from 'node:http'
import nodemailer, { type Transporter } from 'nodemailer'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LISTENING, REPO_ROOT, reportedPort, startStack, waitFor, type Stack } from '../support/stack.js'

let stack: Stack
let smtp: Transporter

beforeAll(async () => {
  stack = await startStack({ env: { MAX_ACTIVE_ADDRESSES_PER_IP: '50' } })
  smtp = nodemailer.createTransport({ host: '127.0.0.1', port: stack.smtpPort, secure: false, ignoreTLS: true })
})
afterAll(async () => {
  smtp?.close()
  await stack?.stop()
})

type ToolAnswer = { isError?: boolean; content: { type: string; text?: string }[]; structuredContent?: Record<string, unknown> }

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<ToolAnswer> {
  return (await client.callTool({ name, arguments: args }, undefined, { timeout: 60_000 })) as ToolAnswer
}
const text = (answer: ToolAnswer) => answer.content.map((c) => c.text ?? '').join('\n')

/** What an agent does: make an inbox, have mail sent to it, wait for it, read the code, look around, clean up. */
async function signUpFlow(client: Client): Promise<void> {
  const { tools } = await client.listTools()
  expect(tools.map((t) => t.name).sort()).toEqual(['create_inbox', 'delete_inbox', 'get_verification_code', 'list_emails', 'read_email', 'wait_for_email'])
  for (const tool of tools) {
    expect(tool.description, tool.name).toMatch(/^[A-Z][^\n]{20,160}$/)
    expect(tool.inputSchema.type).toBe('object')
    expect(tool.outputSchema?.type, tool.name).toBe('object')
  }
  expect(tools.find((t) => t.name === 'wait_for_email')!.inputSchema.required).toEqual(['address'])

  const created = await call(client, 'create_inbox', {})
  const address = created.structuredContent!.address as string
  expect(address).toMatch(/@tempbox\.test$/)
  expect(text(created)).toContain(address)

  await smtp.sendMail({ from: 'Shop <news@shop.test>', to: address, subject: 'Our weekly deals', text: 'Nothing to confirm here.' })
  await smtp.sendMail({ from: 'MyApp <noreply@myapp.test>', to: address, subject: 'Confirm your sign-up', text: 'Hi!\n\nYour verification code is 748291.\n' })

  const waited = await call(client, 'wait_for_email', { address, subject: 'confirm', timeoutSeconds: 30 })
  expect(waited.isError).toBeFalsy()
  expect(waited.structuredContent).toMatchObject({ subject: 'Confirm your sign-up', codes: ['748291'], textTruncated: false })
  expect(waited.structuredContent!.text).toContain('Your verification code is 748291.')
  expect(text(waited)).toContain('Codes: 748291')

  const code = await call(client, 'get_verification_code', { address, timeoutSeconds: 30 })
  expect(code.isError).toBeFalsy()
  expect(code.structuredContent).toMatchObject({ code: '748291', source: 'Your verification code is 748291.', messageId: waited.structuredContent!.id })
  expect(text(code)).toContain('The code is 748291')

  const listed = await call(client, 'list_emails', { address })
  expect((listed.structuredContent!.messages as { subject: string }[]).map((m) => m.subject)).toEqual(['Confirm your sign-up', 'Our weekly deals'])
  const read = await call(client, 'read_email', { address, messageId: waited.structuredContent!.id })
  expect(read.structuredContent).toMatchObject({ subject: 'Confirm your sign-up', from: 'MyApp <noreply@myapp.test>' })

  const timedOut = await call(client, 'wait_for_email', { address, subject: 'never sent', timeoutSeconds: 1 })
  expect(timedOut.isError).toBe(true)
  expect(text(timedOut)).toBe(`no message matching subject "never sent" arrived at ${address} within 1000 ms; 2 arrived that did not match (subject). Call again to keep waiting.`)

  expect((await call(client, 'delete_inbox', { address })).structuredContent).toEqual({ deleted: true, address })
  const gone = await call(client, 'list_emails', { address })
  expect(gone.isError).toBe(true)
  expect(text(gone)).toMatch(/\(inbox_not_found, HTTP 404\)$/)
}

describe('the MCP server, spoken to by the SDK client', () => {
  it('on stdio (`pnpm --silent mcp`): only protocol on stdout, and an agent signs up with a code', async () => {
    const transport = new StdioClientTransport({
      command: 'pnpm',
      args: ['--silent', 'mcp'],
      cwd: REPO_ROOT,
      env: { ...(process.env as Record<string, string>), TEMPBOX_URL: stack.apiUrl },
      stderr: 'pipe',
    })
    const errors: Error[] = []
    const client = new Client({ name: 'tempbox-test', version: '1.0.0' })
    await client.connect(transport)
    // Set after connect (which installs its own): any stdout line that is not JSON-RPC lands here.
    const onerror = transport.onerror
    transport.onerror = (error) => {
      errors.push(error)
      onerror?.(error)
    }
    try {
      await signUpFlow(client)
    } finally {
      await client.close()
    }
    expect(errors).toEqual([])
  })

  it('over Streamable HTTP (`pnpm mcp --http`, MCP_PORT), refusing a foreign Host header', async () => {
    const server: ChildProcess = spawn('pnpm', ['--silent', 'mcp', '--http'], {
      cwd: REPO_ROOT,
      env: { ...process.env, TEMPBOX_URL: stack.apiUrl, MCP_PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    })
    let output = ''
    server.stderr!.on('data', (d: Buffer) => (output += d.toString()))
    const exited = new Promise((resolve) => server.once('exit', resolve))
    try {
      await waitFor(() => reportedPort(output, LISTENING.mcp) !== undefined, 60_000, 'the MCP server to listen')
      const port = reportedPort(output, LISTENING.mcp)!
      expect(output).toContain(`Streamable HTTP on http://127.0.0.1:${port}/mcp`)
      const client = new Client({ name: 'tempbox-test', version: '1.0.0' })
      await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)) as Transport)
      try {
        await signUpFlow(client)
      } finally {
        await client.close()
      }
      // node:http, not fetch: fetch sends the Host of the URL whatever the headers say.
      const rebound = await new Promise<number>((resolve, reject) => {
        const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' })
        request({ port, path: '/mcp', method: 'POST', headers: { host: 'attacker.test', 'content-type': 'application/json', accept: 'application/json, text/event-stream' } }, (res) => {
          res.resume()
          resolve(res.statusCode!)
        })
          .on('error', reject)
          .end(body)
      })
      expect(rebound).toBe(403)
    } finally {
      // pnpm and the server: the whole process group goes.
      process.kill(-server.pid!, 'SIGTERM')
      await exited
    }
  })
})
