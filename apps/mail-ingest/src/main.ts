import { createDb, migrateToLatest } from '@tempbox/db'
import { loadConfig } from './config.js'
import { createSmtpServer } from './smtp-server.js'

const config = loadConfig()
const { db, sqlite } = createDb({ path: config.databasePath })
await migrateToLatest(db)
const ingest = createSmtpServer({ db, sqlite, config })
const port = await ingest.listen()
console.log(`[smtp] listening on ${config.host}:${port} for ${config.mailDomains.join(', ')}`)
console.log(ingest.tlsStatus)

let isStopping = false
const stop = async (signal: string) => {
  if (isStopping) return
  isStopping = true
  console.log(`[smtp] ${signal} received, closing`)
  await ingest.close()
  await db.destroy()
  process.exit(0)
}
process.on('SIGTERM', () => void stop('SIGTERM'))
process.on('SIGINT', () => void stop('SIGINT'))
