import fp from 'fastify-plugin'
import { MailWatcher } from '../services/messages/mail-watcher.js'
import { InboxService } from '../services/inboxes/inbox-service.js'
import { InboxListingService } from '../services/inboxes/inbox-listing-service.js'
import { MessageReadService } from '../services/inboxes/message-read-service.js'
import { MessageStateService } from '../services/inboxes/message-state-service.js'
import { AddressLifetimeService } from '../services/inboxes/address-lifetime.js'
import { WebhookService } from '../services/webhooks/webhook-service.js'
import { systemLookup, type LookupHost } from '../services/webhooks/webhook-target.js'
import { AuthService } from '../services/accounts/auth-service.js'
import { SetupService } from '../services/accounts/setup-service.js'
import { SessionService } from '../services/accounts/session-service.js'
import { accountKey, deriveKey } from '../service-state/client-keys.js'
import { AnalyticsService } from '../services/analytics/analytics-service.js'
import { DeliveryLogService } from '../services/deliveries/delivery-log-service.js'

declare module 'fastify' {
  interface FastifyInstance {
    mailWatcher: MailWatcher
    /** Addresses: creating, finding, releasing, saving, the expiry sweep. */
    inboxService: InboxService
    /** An inbox's listings and the catch-up of streams and waits. */
    inboxListings: InboxListingService
    /** One message read: its view, raw source, attachments. */
    messageReads: MessageReadService
    /** Read state and deletion of a message. */
    messageStates: MessageStateService
    addressLifetimes: AddressLifetimeService
    webhookService: WebhookService
    /** How webhook host names are resolved, at PUT and again at every attempt; tests replace `lookup`. */
    webhookDns: { lookup: LookupHost }
    authService: AuthService
    sessionService: SessionService
    setupService: SetupService
    analyticsService: AnalyticsService
    deliveryLog: DeliveryLogService
  }
}

/**
 * The one place the API's services are built and wired to each other: routes and background jobs only use them.
 * One change watcher for the whole process (see MailWatcher), and the inbox rules built on it.
 */
export default fp(
  async (app) => {
    const { config, sharedState } = app
    const watcher = new MailWatcher(app.db, app.storage)
    await watcher.start()
    app.addHook('onClose', async () => {
      watcher.stop()
    })
    const inboxes = new InboxService(app.db, config, watcher, sharedState.addressLimits)
    const listings = new InboxListingService(app.db, config, watcher, inboxes, (message, err) => app.log.error({ err }, message))
    const reads = new MessageReadService(app.db, config)
    app.decorate('mailWatcher', watcher)
    app.decorate('inboxService', inboxes)
    app.decorate('inboxListings', listings)
    app.decorate('messageReads', reads)
    app.decorate('messageStates', new MessageStateService(app.db, watcher, inboxes, listings, reads, sharedState.peers))
    app.decorate('addressLifetimes', new AddressLifetimeService(app.db, config, inboxes))
    app.decorate('deliveryLog', new DeliveryLogService(app.db))

    const dns = { lookup: systemLookup }
    const lookupHost: LookupHost = (host) => dns.lookup(host)
    app.decorate('webhookDns', dns)
    app.decorate('webhookService', new WebhookService(app.db, config.webhooks, lookupHost))

    const sessions = new SessionService(app.db, (user, sessionId) => app.signToken(user, sessionId), config)
    app.decorate('sessionService', sessions)
    const accountKeys = deriveKey(config.jwtSecret, 'login-account')
    const auth = new AuthService(app.db, sessions, sharedState.loginFailures, (email) => accountKey(accountKeys, email), config.passwordHash)
    app.addHook('onReady', () => auth.warm())
    app.decorate('authService', auth)
    app.decorate('setupService', new SetupService(app.db, config.adminSetupKey, config.showSetupKey))

    const countryOf = async (ip: string) => (await app.geoip.lookup(ip))?.countryName ?? null
    app.decorate('analyticsService', new AnalyticsService(app.db, countryOf, sharedState.visitorSalts))
  },
  { name: 'services', dependencies: ['db', 'geoip', 'auth'] },
)
