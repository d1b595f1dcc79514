import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { CodeWaitQuery, CodeWaitResponse, ErrorBody, type CodeResult } from '@tempbox/types'
import type { InboxRow } from '@tempbox/db'
import { findNewestCodeMessageId } from '../../repositories/code-repository.js'
import { findMessageAuth } from '../../repositories/message-auth-repository.js'
import { toMessageAuth } from '../../services/messages/message-auth-view.js'
import { AddressParams, addressErrors } from './schemas.js'
import { INBOX_CONTENT_CACHE } from './content-cache.js'
import { takeStreamSlot } from '../../services/limits/stream-slots.js'

/** `GET /email/{address}/code`: the long poll for a one-time code, built as `/wait` is, on the one MailWatcher. */
const codeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const inboxes = app.inboxService
  const watcher = app.mailWatcher
  /** Open waits end when the app closes, so shutdown never hangs on them. */
  const closers = new Set<() => void>()
  app.addHook('preClose', async () => {
    for (const close of [...closers]) close()
  })

  /** The most likely code of the newest message after `since` that has one, with its sender check; null when none. */
  async function newestCode(inbox: InboxRow, since: number): Promise<CodeResult | null> {
    const id = await findNewestCodeMessageId(app.db, inbox.id, since)
    if (id === null) return null
    // Read as a whole message: a row derived by an older version is derived again (and may then hold no code).
    const [message] = await app.messageReads.fullMessagesByIds(inbox, [id])
    const detail = message?.verification.codeDetails[0]
    if (!message || !detail) return null
    const auth = toMessageAuth(await findMessageAuth(app.db, inbox.id, id))
    return { ...detail, messageId: message.id, receivedAt: message.receivedAt, sender: { verdict: auth?.status ?? 'unknown' } }
  }

  app.get(
    '/email/:address/code',
    {
      schema: {
        tags: ['email'],
        summary: 'Long poll for a one-time code: answers with the newest code received after `since`, or after `timeout` seconds',
        description:
          'Waits for a message newer than `since` (a message id; default: the newest message at the time of the call) ' +
          'that holds a one-time code, and answers 200 `{code, timedOut: false}` with its most likely code: the code, the ' +
          'sentence it came from (`source`), why it was taken (`reason`, `label`), its `position` in the text, the message ' +
          '(`messageId`, `receivedAt`) and its sender check (`sender.verdict`). When several such messages are there, the ' +
          'newest one answers. A code of a message up to `since` is never returned. On timeout: 200 `{code: null, timedOut: true}`.',
        params: AddressParams,
        querystring: CodeWaitQuery,
        response: { 200: CodeWaitResponse, ...addressErrors, 429: ErrorBody },
      },
      logLevel: 'warn',
    },
    async (request, reply) => {
      const inbox = await inboxes.getInbox(request.params.address)
      reply.header('Cache-Control', INBOX_CONTENT_CACHE)
      const timeoutMs = (request.query.timeout ?? 30) * 1000
      await watcher.sync()
      const since = request.query.since !== undefined ? Number(request.query.since) : await app.inboxListings.latestMessageId(inbox)
      const giveSlot = await takeStreamSlot(app, request, reply)

      const code = await new Promise<CodeResult | null>((resolve) => {
        let done = false
        let timer: NodeJS.Timeout | undefined
        const finish = (result: CodeResult | null) => {
          if (done) return
          done = true
          unsubscribe()
          clearTimeout(timer)
          closers.delete(stop)
          giveSlot()
          reply.raw.off('close', stop)
          resolve(result)
        }
        const stop = () => finish(null)
        // As in /wait: one query at a time, run again only when mail came meanwhile.
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
              const result = await newestCode(inbox, since)
              if (result) return finish(result)
            } while (again && !done)
          } catch (error) {
            request.log.error(error, 'code wait: query failed')
            finish(null)
          } finally {
            checking = false
          }
        }
        const unsubscribe = watcher.subscribe(inbox.id, (event) => {
          if (event.type === 'message' && event.row.id > since) void check()
          else if (event.type === 'expired') finish(null)
        })
        closers.add(stop)
        reply.raw.on('close', stop)
        // The timeout counts from the first answer of the database: `timeout=0` is one look, never cut short.
        void check().then(() => {
          if (!done) timer = setTimeout(stop, timeoutMs)
        })
      })
      return { code, timedOut: code === null }
    },
  )
}

export default codeRoutes
