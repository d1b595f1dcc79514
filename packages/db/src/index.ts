export { createDb, migrateToLatest, PAGE_SIZE, type Db, type DbConfig } from './create-db.js'
export { resolveDatabasePath, DEFAULT_DATABASE_PATH } from './database-path.js'
export type * from './schema.js'
export { fullSource, toStoredSource, type StoredSource } from './message-source.js'
