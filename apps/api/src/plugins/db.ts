import fp from 'fastify-plugin'
import { createDb, migrateToLatest, type Db } from '@tempbox/db'

declare module 'fastify' {
  interface FastifyInstance {
    db: Db
  }
}

/** Opens the shared SQLite file, migrates it, and closes it with the app. */
export default fp(
  async (app, opts: { path: string }) => {
    const { db } = createDb({ path: opts.path })
    await migrateToLatest(db)
    app.decorate('db', db)
    app.addHook('onClose', async () => {
      await db.destroy()
    })
  },
  { name: 'db' },
)
