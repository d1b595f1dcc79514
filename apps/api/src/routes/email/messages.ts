import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type, type Static } from 'typebox'
import { ErrorBody, FullMessage, MessageReadBody, MessageReadState } from '@tempbox/types'
import { attachmentDisposition, emlFilename, safeContentType } from '../../services/messages/content-disposition.js'
import { AttachmentParams, BinaryBody, MessageParams, addressErrors, messageIdOf } from './schemas.js'
import { INBOX_CONTENT_CACHE } from './content-cache.js'

/** One message: as JSON, as its raw source, its attachments, and deleting it. */
const messageRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const inboxes = app.inboxService
  const { messageReads: reads, messageStates: states } = app

  app.get(
    '/email/:address/messages/:id',
    {
      schema: {
        tags: ['email'],
        summary: 'A whole message: text, sanitized HTML, headers, attachments, codes and links',
        params: MessageParams,
        response: { 200: FullMessage, ...addressErrors },
      },
    },
    async (request, reply) => {
      const inbox = await inboxes.getInbox(request.params.address)
      // Bytes made by this route's own serializer (on a miss), so a cached view goes out exactly as a fresh one would.
      // Fastify sends a Buffer as it is; the type provider knows only the object the bytes spell.
      const body = await reads.fullMessageJson(inbox, messageIdOf(request.params), (view) => reply.serialize(view) as string)
      return reply.header('Cache-Control', INBOX_CONTENT_CACHE).type('application/json; charset=utf-8').send(body as unknown as Static<typeof FullMessage>)
    },
  )

  app.patch(
    '/email/:address/messages/:id',
    {
      schema: {
        tags: ['email'],
        summary: 'Mark a message read or unread in this inbox (reading it never does)',
        description:
          'Messages are unread until marked. GET of a message does not mark it, so scripts, waits and previews leave ' +
          'the state to the person reading; the web app marks a message when its reader opens it. Per inbox: the same ' +
          'mail received by another address keeps its own state. Answers the inbox\'s unread count after the change.',
        params: MessageParams,
        body: MessageReadBody,
        response: { 200: MessageReadState, ...addressErrors },
      },
    },
    async (request, reply) => {
      const inbox = await inboxes.getInbox(request.params.address)
      reply.header('Cache-Control', 'no-store')
      return states.setRead(inbox, messageIdOf(request.params), request.body.read)
    },
  )

  app.get(
    '/email/:address/messages/:id/raw',
    {
      schema: {
        tags: ['email'],
        summary: 'The message exactly as received (RFC 822 source), as an .eml download',
        params: MessageParams,
        response: { 200: BinaryBody('message/rfc822 bytes'), ...addressErrors },
      },
    },
    async (request, reply) => {
      const inbox = await inboxes.getInbox(request.params.address)
      const message = await reads.rawMessage(inbox, messageIdOf(request.params))
      return reply
        .header('Content-Type', 'message/rfc822')
        .header('Content-Disposition', attachmentDisposition(emlFilename(message.subject, message.id)))
        .header('X-Content-Type-Options', 'nosniff')
        .header('Cache-Control', INBOX_CONTENT_CACHE)
        .send(message.raw)
    },
  )

  app.get(
    '/email/:address/messages/:id/attachments/:n',
    {
      schema: {
        tags: ['email'],
        summary: 'Download one attachment (always as a download, never rendered)',
        params: AttachmentParams,
        response: { 200: BinaryBody('The attachment bytes'), ...addressErrors },
      },
    },
    async (request, reply) => {
      const inbox = await inboxes.getInbox(request.params.address)
      const file = await reads.attachment(inbox, messageIdOf(request.params), request.params.n)
      return reply
        .header('Content-Type', safeContentType(file.content_type))
        .header('Content-Disposition', attachmentDisposition(file.filename || `attachment-${file.position}`))
        .header('X-Content-Type-Options', 'nosniff')
        // Even if a browser ignored the disposition, nothing in the file may run with our origin.
        .header('Content-Security-Policy', "default-src 'none'; sandbox")
        .header('Cache-Control', INBOX_CONTENT_CACHE)
        .send(file.content)
    },
  )

  app.delete(
    '/email/:address/messages/:id',
    {
      schema: {
        tags: ['email'],
        summary: 'Delete a message',
        params: MessageParams,
        response: { 204: Type.Null({ description: 'Deleted.' }), 400: ErrorBody, 404: ErrorBody },
      },
    },
    async (request, reply) => {
      const inbox = await inboxes.getInbox(request.params.address)
      await states.deleteMessage(inbox, messageIdOf(request.params))
      return reply.status(204).send(null)
    },
  )
}

export default messageRoutes
