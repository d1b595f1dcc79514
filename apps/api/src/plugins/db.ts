import fp from 'fastify-plugin'
import { migrateToLatest, openStorage, type Db, type Storage, type StorageConfig } from '@tempbox/db'

declare module 'fastify' {
  interface FastifyInstance {
    /** The query builder the repositories use. */
    db: Db
    /** The storage under it: readiness probe and commit signal (see Storage). */
    storage: Storage
  }
}

/** Opens the shared storage (the SQLite file, or PostgreSQL at DATABASE_URL), migrates it, and closes it with the app. */
export default fp(
  async (app, opts: { storage: StorageConfig }) => {
    const storage = openStorage(opts.storage)
    await migrateToLatest(storage.db)
    app.decorate('storage', storage)
    app.decorate('db', storage.db)
    app.addHook('onClose', async () => {
      await storage.close()
    })
  },
  { name: 'db' },
)
