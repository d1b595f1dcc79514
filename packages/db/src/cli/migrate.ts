import { migrateToLatest, openDb } from '../create-db.js'
import { resolveDatabasePath } from '../database-path.js'

const path = resolveDatabasePath(process.env.DATABASE_PATH)
const { db, engine } = openDb({ url: process.env.DATABASE_URL, path })
await migrateToLatest(db)
await db.destroy()
console.log(`[db] migrated ${engine === 'postgres' ? 'PostgreSQL at DATABASE_URL' : path}`)
