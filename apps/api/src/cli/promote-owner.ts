import { existsSync } from 'node:fs'
import { isPostgresUrl, openDb, resolveDatabasePath } from '@tempbox/db'
import { promoteOwnerByEmail } from '../repositories/user-repository.js'
import { normaliseEmail } from '../services/accounts/user-fields.js'

/**
 * `pnpm owner:promote <email>`: makes an existing account an owner, on the database the services use (DATABASE_URL,
 * else the SQLite file at DATABASE_PATH). Safe while they run: SQLite's WAL and busy timeout, or one PostgreSQL
 * transaction. Exit 0 when the account is an owner afterwards, 1 when there is no such account, 2 on a usage error.
 */
async function main(args: string[]): Promise<number> {
  const email = normaliseEmail(args.filter((a) => a !== '--')[0] ?? '')
  if (email === '') {
    console.error('Usage: pnpm owner:promote <email> (the email of an existing account)')
    return 2
  }
  const url = process.env.DATABASE_URL?.trim()
  if (url && !isPostgresUrl(url)) {
    console.error('DATABASE_URL must be a postgres:// or postgresql:// URL (or unset, for the SQLite file at DATABASE_PATH).')
    return 2
  }
  const path = resolveDatabasePath(process.env.DATABASE_PATH)
  // Opening a missing file would create an empty database: a mistyped path must not look like "no such account".
  if (!url && (path === ':memory:' || !existsSync(path))) {
    console.error(`There is no Tempbox database at ${path}: set DATABASE_PATH (or DATABASE_URL) as the services have it.`)
    return 2
  }
  const where = url ? 'the PostgreSQL database at DATABASE_URL' : path
  const { db } = openDb({ url, path })
  try {
    const result = await promoteOwnerByEmail(db, email, Date.now())
    if (result === 'missing') {
      console.error(`There is no account with the email ${email} in ${where}; nothing was changed.`)
      return 1
    }
    if (result === 'already') console.log(`${email} is already an owner; nothing was changed.`)
    else console.log(`${email} is now an owner. Their open sessions get owner rights with their next request (reload the page); no new sign-in is needed.`)
    return 0
  } finally {
    await db.destroy()
  }
}

process.exitCode = await main(process.argv.slice(2))
