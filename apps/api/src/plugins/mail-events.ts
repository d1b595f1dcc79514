import fp from 'fastify-plugin'
import { MailWatcher } from '../services/mail-watcher.js'
import { InboxService } from '../services/inbox-service.js'

declare module 'fastify' {
  interface FastifyInstance {
    mailWatcher: MailWatcher
    inboxService: InboxService
  }
}

/** One change watcher for the whole process (see MailWatcher), and the inbox rules built on it. */
export default fp(
  async (app) => {
    const watcher = new MailWatcher(app.db, app.config.databasePath)
    await watcher.start()
    app.decorate('mailWatcher', watcher)
    app.decorate(
      'inboxService',
      new InboxService(app.db, app.config, watcher, app.globalState.addressLimits, app.globalState.peers, (message, err) => app.log.error({ err }, message)),
    )
    app.addHook('onClose', async () => {
      watcher.stop()
    })
  },
  { name: 'mail-events', dependencies: ['db'] },
)
