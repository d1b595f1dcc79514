import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { AppError } from '../../errors.js'
import { attachmentUrl } from '../../services/messages/message-view.js'
import { mailDerive } from '../../services/messages/mail-derive-module.js'
import { BinaryBody, MessageParams, addressErrors, messageIdOf } from './schemas.js'
import { INBOX_CONTENT_CACHE } from './content-cache.js'

/** A Host (or forwarded host) fit to be written into a CSP source; anything else gets no attachment source at all. */
const PLAIN_HOST = /^[A-Za-z0-9.-]{1,253}(?::[0-9]{1,5})?$|^\[[0-9A-Fa-f:.]{2,45}\](?::[0-9]{1,5})?$/

/**
 * `GET …/messages/{id}/frame`: the HTML body as a document of its own, for the web app's sandboxed frame. It has its
 * own URL so it has its own Content-Security-Policy: a srcdoc frame inherits the page's policy, which then had to
 * allow every image host and inline style for the mail's sake.
 */
const frameRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const inboxes = app.inboxService

  app.get(
    '/email/:address/messages/:id/frame',
    {
      schema: {
        tags: ['email'],
        summary: 'The sanitized HTML body as a document for a sandboxed frame, under its own CSP (remote images with images=true)',
        description:
          'No script runs in it (CSP `sandbox` without allow-scripts). Images load from `data:` and this message\'s own ' +
          'attachments only, and from the web only with `images=true`, which the web app sends when its reader presses ' +
          '"Show images". 404 `not_found` when the message has no HTML body (or it was withheld).',
        params: MessageParams,
        querystring: Type.Object({ images: Type.Optional(Type.Boolean({ description: 'Load remote images.' })) }),
        response: { 200: BinaryBody('text/html document'), ...addressErrors },
      },
    },
    async (request, reply) => {
      const inbox = await inboxes.getInbox(request.params.address)
      const id = messageIdOf(request.params)
      const message = await app.messageReads.fullMessage(inbox, id)
      const { buildMailDocument, mailDocumentCsp } = await mailDerive()
      if (message.html === null) throw new AppError('not_found', 'This message has no HTML body to show.')
      const showRemote = request.query.images === true
      // The folder of this message's attachments, absolute (a CSP source cannot be a bare path); the trailing `/`
      // makes the policy match the paths below it and nothing else of our origin.
      const folder = attachmentUrl(inbox.address, id, 0).slice(0, -1)
      const attachments = PLAIN_HOST.test(request.host) ? `${request.protocol}://${request.host}${folder}` : "'none'"
      return reply
        .header('Content-Type', 'text/html; charset=utf-8')
        .header('Content-Security-Policy', mailDocumentCsp(attachments, showRemote))
        // The app frames it; nobody else may.
        .header('X-Frame-Options', 'SAMEORIGIN')
        .header('Cache-Control', INBOX_CONTENT_CACHE)
        .send(Buffer.from(buildMailDocument(message.html, { showRemote }), 'utf8'))
    },
  )
}

export default frameRoutes
