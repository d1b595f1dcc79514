import fp from 'fastify-plugin'
import { migrateToLatest, openStorage, type Db, type Storage } from '@tempbox/db'

declare module 'fastify' {
  interface FastifyInstance {
    /** The query builder the repositories use. */
    db: Db
    /** The storage under it: readiness probe and commit signal (see Storage). */
    storage: Storage
  }
}

/** Opens the shared storage, migrates it, and closes it with the app. */
export default fp(
  async (app, opts: { path: string }) => {
    const storage = openStorage({ path: opts.path })
    await migrateToLatest(storage.db)
    app.decorate('storage', storage)
    app.decorate('db', storage.db)
    app.addHook('onClose', async () => {
      await storage.close()
    })
  },
  { name: 'db' },
)
