import fp from 'fastify-plugin'
import { createDb, migrateToLatest, type Db } from '@tempbox/db'
import { registerTextFunctions } from '../repositories/message-filter.js'

declare module 'fastify' {
  interface FastifyInstance {
    db: Db
  }
}

/** Opens the shared SQLite file, migrates it, and closes it with the app. */
export default fp(
  async (app, opts: { path: string }) => {
    const { db, sqlite } = createDb({ path: opts.path })
    registerTextFunctions(sqlite)
    await migrateToLatest(db)
    app.decorate('db', db)
    app.addHook('onClose', async () => {
      await db.destroy()
    })
  },
  { name: 'db' },
)
