import type { FullMessage, MessageSummary } from '@tempbox/types'
import { http, HttpResponse } from 'msw'
import { fullMessage, inboxPage } from './email-data'

export const TEST_ADDRESS = 'bright-otter-42@tempbox.test'

/** In-memory state the email handlers serve; tests reset and shape it. */
export const emailState = {
  messages: [] as MessageSummary[],
  details: new Map<string, FullMessage>(),
  /** Requests to the inbox, with their URL and headers, for assertions. */
  inboxRequests: [] as Request[],
  deleted: [] as string[],
  /** Ids marked read with PATCH, in order. */
  markedRead: [] as string[],
  reset() {
    this.messages = []
    this.details = new Map()
    this.inboxRequests = []
    this.deleted = []
    this.markedRead = []
  },
}

/** Happy-path handlers of the email API; tests override single routes with `server.use`. */
export const emailHandlers = [
  http.post('/api/email/generate', () =>
    HttpResponse.json({ email: TEST_ADDRESS, expiresAt: new Date(Date.now() + 24 * 3600_000).toISOString() }),
  ),
  http.get('/api/email/domains', () => HttpResponse.json({ domains: ['tempbox.test', 'mailbox.test'] })),
  http.get('/api/email/:address/messages/:id', ({ params }) => {
    const detail = emailState.details.get(String(params.id)) ?? fullMessage({ id: String(params.id) })
    return HttpResponse.json(detail)
  }),
  http.patch('/api/email/:address/messages/:id', async ({ params, request }) => {
    const { read } = (await request.json()) as { read: boolean }
    const id = String(params.id)
    if (read) emailState.markedRead.push(id)
    emailState.messages = emailState.messages.map((m) => (m.id === id ? { ...m, read } : m))
    return HttpResponse.json({ id, read, unread: emailState.messages.filter((m) => !m.read).length })
  }),
  http.get('/api/config', () =>
    HttpResponse.json({ supportEmail: 'help@tempbox.test', privacyEmail: 'privacy@tempbox.test', legalEmail: 'help@tempbox.test' }),
  ),
  http.delete('/api/email/:address/messages/:id', ({ params }) => {
    emailState.deleted.push(String(params.id))
    emailState.messages = emailState.messages.filter((m) => m.id !== params.id)
    return new HttpResponse(null, { status: 204 })
  }),
  http.get('/api/email/:address', ({ request }) => {
    emailState.inboxRequests.push(request.clone())
    const url = new URL(request.url)
    const page = inboxPage(emailState.messages, Number(url.searchParams.get('limit') ?? 50), url.searchParams.get('before'))
    return HttpResponse.json(page, { headers: { 'Cache-Control': 'no-cache, private' } })
  }),
]
