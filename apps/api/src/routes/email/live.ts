import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { ErrorBody, WaitQuery, WaitResponse } from '@tempbox/types'
import type { InboxEvent } from '../../services/messages/mail-watcher.js'
import type { NamedCondition } from '../../repositories/near-miss-repository.js'
import { AddressParams, addressErrors } from './schemas.js'
import { INBOX_CONTENT_CACHE } from './content-cache.js'
import { takeStreamSlot } from '../../services/limits/stream-slots.js'

/** Reconnect hint for EventSource after a dropped stream. */
const RETRY_MS = 3_000

/** Push (Server-Sent Events) and long-poll views of an inbox, both fed by the one MailWatcher. */
const liveRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const inboxes = app.inboxService
  const watcher = app.mailWatcher
  /** A comment line this often keeps proxies with idle timeouts or buffers holding the stream open and flushed. */
  const heartbeatMs = app.config.sseHeartbeatMs
  /** Open streams and waits end when the app closes, so shutdown never hangs on them. */
  const closers = new Set<() => void>()
  let closing = false
  app.addHook('preClose', async () => {
    closing = true
    for (const close of [...closers]) close()
  })

  app.get(
    '/email/:address/events',
    {
      schema: {
        tags: ['email'],
        summary:
          'Server-Sent Events: `ready`, then `message` for each new mail, `deleted`, `expired`; ' +
          `\`: ping\` comments every ${heartbeatMs / 1000} s`,
        description:
          'Send `Last-Event-ID` (EventSource does it on reconnect) to receive the messages that arrived while disconnected. ' +
          'Event data is JSON: `message` → `{message: MessageSummary}` (the same summary the listing gives), `deleted` → `{id}`, `expired` → `{address}`.',
        params: AddressParams,
        response: { 200: Type.String({ description: 'text/event-stream' }), ...addressErrors, 429: ErrorBody },
      },
      logLevel: 'warn',
    },
    async (request, reply) => {
      const inbox = await inboxes.getInbox(request.params.address)
      await watcher.sync()
      const lastEventId = Number(request.headers['last-event-id'])
      let lastSent = Number.isSafeInteger(lastEventId) && lastEventId > 0 ? lastEventId : await app.inboxListings.latestMessageId(inbox)
      const giveSlot = await takeStreamSlot(app, request, reply)

      reply.hijack()
      const res = reply.raw
      // Hijacked: Fastify no longer writes the headers set so far (the security headers), so they go here.
      res.writeHead(200, {
        ...(reply.getHeaders() as Record<string, string>),
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': `${INBOX_CONTENT_CACHE}, no-transform`,
        Connection: 'keep-alive',
        'X-Accel-Buffering': 'no',
      })
      res.socket?.setNoDelay(true)
      const send = (event: string, data: unknown, id?: number) => {
        res.write(`${id !== undefined ? `id: ${id}\n` : ''}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`)
      }
      res.write(`retry: ${RETRY_MS}\n\n`)
      send('ready', { address: inbox.address, expiresAt: new Date(inbox.expires_at).toISOString() })

      let closed = false
      const close = () => {
        if (closed) return
        closed = true
        unsubscribe()
        clearInterval(heartbeat)
        clearTimeout(expiry)
        closers.delete(close)
        giveSlot()
        app.metrics.sseClients.dec()
        res.end()
      }
      const onEvent = (event: InboxEvent) => {
        if (closed) return
        if (event.type === 'message') {
          if (event.row.id <= lastSent) return
          lastSent = event.row.id
          send('message', { message: app.inboxListings.summary(event.row) }, event.row.id)
        } else if (event.type === 'deleted') {
          send('deleted', { id: String(event.id) })
        } else {
          send('expired', { address: inbox.address })
          close()
        }
      }
      // Subscribe before catching up so nothing committed in between is missed (lastSent drops duplicates).
      const unsubscribe = watcher.subscribe(inbox.id, onEvent)
      const heartbeat = setInterval(() => res.write(': ping\n\n'), heartbeatMs)
      const expiry = setTimeout(() => onEvent({ type: 'expired' }), Math.min(inbox.expires_at - Date.now(), 2 ** 31 - 1))
      closers.add(close)
      app.metrics.sseClients.inc()
      res.on('close', close)
      for (const row of await app.inboxListings.messagesAfter(inbox, lastSent)) onEvent({ type: 'message', row })
    },
  )

  app.get(
    '/email/:address/wait',
    {
      schema: {
        tags: ['email'],
        summary: 'Long poll: answers as soon as the message you expect arrives (or `count` of them), or after `timeout` seconds',
        description:
          'Waits for messages newer than `since` (a message id; default: the newest message at the time of the call) that ' +
          'match every filter given — `from` (sender name or address), `subject`, `contains` (the text); each a ' +
          'case-insensitive substring, `%` and `_` taken literally — until `count` (default 1) of them are there. Answers ' +
          '200 `{message, messages, timedOut: false}` with the whole messages (oldest first; `message` is the first), ' +
          'including extracted codes and links, or 200 `{message: null, messages: [], timedOut: true, nearMisses}` when the ' +
          'timeout passes first. Other mail arriving meanwhile is left alone; `nearMisses` lists it (each message with the ' +
          'filters it missed) and the deliveries refused or deferred in the same window (from the arrival of message `since` ' +
          'when given, else from the call; see `…/deliveries`).',
        params: AddressParams,
        querystring: WaitQuery,
        response: { 200: WaitResponse, ...addressErrors, 429: ErrorBody },
      },
      logLevel: 'warn',
    },
    async (request, reply) => {
      const inbox = await inboxes.getInbox(request.params.address)
      reply.header('Cache-Control', INBOX_CONTENT_CACHE)
      const { from, subject, contains } = request.query
      const count = request.query.count ?? 1
      const named: NamedCondition[] = []
      if (from !== undefined) named.push({ name: 'from', condition: { kind: 'from', value: from } })
      if (subject !== undefined) named.push({ name: 'subject', condition: { kind: 'subject', value: subject } })
      if (contains !== undefined) named.push({ name: 'contains', condition: { kind: 'text', value: contains } })
      const conditions = named.map((c) => c.condition)
      const startedAt = Date.now()
      const timeoutMs = (request.query.timeout ?? 30) * 1000
      await watcher.sync()
      const since = request.query.since !== undefined ? Number(request.query.since) : await app.inboxListings.latestMessageId(inbox)
      const giveSlot = await takeStreamSlot(app, request, reply)

      const found = await new Promise<number[] | null>((resolve) => {
        let done = false
        const finish = (ids: number[] | null) => {
          if (done) return
          done = true
          unsubscribe()
          clearTimeout(timer)
          closers.delete(stop)
          giveSlot()
          reply.raw.off('close', stop)
          resolve(ids)
        }
        const stop = () => finish(null)
        // One query at a time per wait, run again only when new mail came meanwhile: a burst of mail costs one
        // indexed query over this inbox (capped by its quota), never a query per message piling up.
        let checking = false
        let again = false
        const check = async () => {
          if (checking) {
            again = true
            return
          }
          checking = true
          try {
            do {
              again = false
              const ids = await app.inboxListings.matchingMessagesAfter(inbox, since, conditions, count)
              if (ids.length >= count) return finish(ids)
            } while (again && !done)
          } catch (error) {
            request.log.error(error, 'wait: matching query failed')
            finish(null)
          } finally {
            checking = false
          }
        }
        const unsubscribe = watcher.subscribe(inbox.id, (event) => {
          if (event.type === 'message' && event.row.id > since) void check()
          else if (event.type === 'expired') finish(null)
        })
        const timer = setTimeout(stop, timeoutMs)
        closers.add(stop)
        reply.raw.on('close', stop)
        void check()
      })
      const messages = found === null ? [] : await app.messageReads.fullMessagesByIds(inbox, found)
      if (messages.length > 0) return { message: messages[0]!, messages, timedOut: false }
      // A client gone or an app closing reads no answer: the near misses are looked for only when one is read.
      if (closing || reply.raw.destroyed || request.raw.socket.destroyed) return { message: null, messages, timedOut: true }
      const nearMisses = await app.deliveryLog.nearMisses(inbox, since, request.query.since !== undefined, startedAt, named)
      return { message: null, messages, timedOut: true, nearMisses }
    },
  )
}

export default liveRoutes
