import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { z } from 'zod'
import { Tempbox, TempboxError, TempboxTimeoutError, type FullMessage } from '@tempbox/client'

/** Longest wait one tool call may ask for: MCP hosts commonly give a call about a minute or two. */
const MAX_WAIT_SECONDS = 120

const address = z.string().min(3).max(400).describe('The full inbox address, e.g. k7m2qx9ta4pe@tempbox.example.')
const since = z
  .string()
  .regex(/^[0-9]{1,15}$/)
  .optional()
  .describe('Only mail with a larger message id than this (pass the id of the last message you handled); default: all mail of the inbox.')
const timeoutSeconds = z.number().int().min(0).max(MAX_WAIT_SECONDS).default(30).describe(`Seconds to wait (0–${MAX_WAIT_SECONDS}, default 30).`)

const link = z.object({ url: z.string(), label: z.string() })
const messageSummary = {
  id: z.string(),
  subject: z.string(),
  from: z.string(),
  receivedAt: z.string(),
  codes: z.array(z.string()),
  links: z.array(link),
}

function result<T extends Record<string, unknown>>(text: string, structured: T): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: structured }
}

/** API errors and timeouts become tool errors an agent can read and act on; anything else is a fault of ours. */
async function answer(run: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await run()
  } catch (error) {
    if (error instanceof TempboxError) return { isError: true, content: [{ type: 'text', text: `${error.message} (${error.code}, HTTP ${error.status})` }] }
    if (error instanceof TempboxTimeoutError) return { isError: true, content: [{ type: 'text', text: `${error.message}. Call again to keep waiting.` }] }
    throw error
  }
}

function fullMessage(message: FullMessage, maxTextChars: number) {
  const truncated = message.contentTruncated || message.content.length > maxTextChars
  return {
    id: message.id,
    subject: message.subject,
    from: message.sender,
    to: message.to.map((t) => t.address),
    receivedAt: message.receivedAt,
    senderVerdict: message.auth?.status ?? 'unknown',
    text: message.content.slice(0, maxTextChars),
    textTruncated: truncated,
    codes: message.verification.codes,
    links: message.verification.links,
    attachments: message.attachments.map((a) => ({ filename: a.filename, contentType: a.contentType, size: a.size })),
  }
}

function describeMessage(m: ReturnType<typeof fullMessage>): string {
  const lines = [`Message ${m.id} from ${m.from}, received ${m.receivedAt}: "${m.subject}"`]
  if (m.codes.length > 0) lines.push(`Codes: ${m.codes.join(', ')}`)
  if (m.links.length > 0) lines.push(`Links: ${m.links.map((l) => l.url).join(' ')}`)
  lines.push('', m.text + (m.textTruncated ? '\n[text cut here]' : ''))
  return lines.join('\n')
}

/** The Tempbox tools an agent uses to sign up somewhere: make an address, wait for the mail, read the code. */
export function createMcpServer(tempboxUrl: string, maxTextChars: number): McpServer {
  const tempbox = new Tempbox({ baseUrl: tempboxUrl })
  const server = new McpServer({ name: 'tempbox', version: '1.0.0' })
  const fullMessageShape = {
    ...messageSummary,
    to: z.array(z.string()),
    senderVerdict: z.string().describe('pass: the sender domain is proven (DMARC/DKIM); fail: it is forged; none/unknown/checking otherwise.'),
    text: z.string(),
    textTruncated: z.boolean(),
    attachments: z.array(z.object({ filename: z.string(), contentType: z.string(), size: z.number() })),
  }

  server.registerTool(
    'create_inbox',
    {
      title: 'Create inbox',
      description: 'Create a new disposable email address that receives mail right away; use it to sign up or test email flows.',
      inputSchema: {
        localPart: z.string().min(6).max(64).optional().describe('The name before the @ (at least 6 characters); random when left out.'),
        domain: z.string().max(253).optional().describe('One of the served domains; the first when left out.'),
      },
      outputSchema: { address: z.string(), expiresAt: z.string() },
    },
    (args) =>
      answer(async () => {
        const inbox = await tempbox.createInbox(args)
        const out = { address: inbox.address, expiresAt: inbox.expiresAt! }
        return result(`Created ${out.address}; it and its mail are deleted at ${out.expiresAt}.`, out)
      }),
  )

  server.registerTool(
    'wait_for_email',
    {
      title: 'Wait for email',
      description: 'Wait until an email matching the filters arrives at the address (or is already there) and return it whole.',
      inputSchema: {
        address,
        subject: z.string().min(1).max(200).optional().describe('Only mail whose subject contains this (case-insensitive).'),
        from: z.string().min(1).max(200).optional().describe('Only mail whose sender name or address contains this.'),
        contains: z.string().min(1).max(200).optional().describe('Only mail whose text contains this.'),
        since,
        timeoutSeconds,
      },
      outputSchema: fullMessageShape,
    },
    ({ address: to, subject, from, contains, since: after, timeoutSeconds: seconds }) =>
      answer(async () => {
        const message = await tempbox.inbox(to).waitForMessage({ subject, from, contains, since: after ?? '0', timeoutMs: seconds * 1000 })
        const out = fullMessage(message, maxTextChars)
        return result(describeMessage(out), out)
      }),
  )

  server.registerTool(
    'get_verification_code',
    {
      title: 'Get verification code',
      description: 'Return the newest one-time code (OTP, PIN, verification code) mailed to the address, waiting for it if none is there yet.',
      inputSchema: { address, since, timeoutSeconds },
      outputSchema: {
        code: z.string(),
        source: z.string().describe('The sentence the code was found in.'),
        reason: z.string().describe('labelled (a label such as "code" was seen), digits_only or mixed.'),
        label: z.string().nullable(),
        messageId: z.string(),
        receivedAt: z.string(),
        senderVerdict: z.string(),
      },
    },
    ({ address: to, since: after, timeoutSeconds: seconds }) =>
      answer(async () => {
        const found = await tempbox.inbox(to).waitForCode({ since: after ?? '0', timeoutMs: seconds * 1000 })
        const out = {
          code: found.code,
          source: found.source,
          reason: found.reason,
          label: found.label,
          messageId: found.messageId,
          receivedAt: found.receivedAt,
          senderVerdict: found.sender.verdict,
        }
        return result(`The code is ${out.code} (from: "${out.source}", message ${out.messageId}, sender ${out.senderVerdict}).`, out)
      }),
  )

  server.registerTool(
    'read_email',
    {
      title: 'Read email',
      description: 'Read one email of the address by its message id: text, codes, links, attachments and sender verdict.',
      inputSchema: { address, messageId: z.string().regex(/^[0-9]{1,15}$/).describe('The id from list_emails or wait_for_email.') },
      outputSchema: fullMessageShape,
    },
    ({ address: to, messageId }) =>
      answer(async () => {
        const out = fullMessage(await tempbox.inbox(to).message(messageId), maxTextChars)
        return result(describeMessage(out), out)
      }),
  )

  server.registerTool(
    'list_emails',
    {
      title: 'List emails',
      description: 'List the emails received at the address, newest first, with their codes and links (no bodies).',
      inputSchema: { address },
      outputSchema: { messages: z.array(z.object({ ...messageSummary, preview: z.string() })) },
    },
    ({ address: to }) =>
      answer(async () => {
        const messages = (await tempbox.inbox(to).messages()).map((m) => ({
          id: m.id,
          subject: m.subject,
          from: m.sender,
          receivedAt: m.receivedAt,
          preview: m.preview,
          codes: m.verification.codes,
          links: m.verification.links,
        }))
        const text =
          messages.length === 0
            ? `No email at ${to} yet.`
            : messages.map((m) => `${m.id}  ${m.receivedAt}  ${m.from}  "${m.subject}"${m.codes.length ? `  codes: ${m.codes.join(', ')}` : ''}`).join('\n')
        return result(text, { messages })
      }),
  )

  server.registerTool(
    'delete_inbox',
    {
      title: 'Delete inbox',
      description: 'Delete the address and all its mail now, before it expires.',
      inputSchema: { address },
      outputSchema: { deleted: z.boolean(), address: z.string() },
      annotations: { destructiveHint: true },
    },
    ({ address: to }) =>
      answer(async () => {
        await tempbox.inbox(to).delete()
        return result(`Deleted ${to} and its mail.`, { deleted: true, address: to })
      }),
  )

  return server
}
