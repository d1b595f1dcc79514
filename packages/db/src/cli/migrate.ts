import { createDb, migrateToLatest } from '../create-db.js'
import { resolveDatabasePath } from '../database-path.js'

const path = resolveDatabasePath(process.env.DATABASE_PATH)
const { db } = createDb({ path })
await migrateToLatest(db)
await db.destroy()
console.log(`[db] migrated ${path}`)
