/**
 * argon2id at 64 KiB × 1 pass for the test apps' accounts, not production's 7 MiB × 5 (~36 ms a hash); an app run
 * with APP_ENV=production keeps the default cost, as it refuses less there.
 */
export function cheapHashing(env: Record<string, string> = {}): Record<string, string> {
  return env.APP_ENV === 'production' ? {} : { PASSWORD_HASH_MEMORY_KIB: '64', PASSWORD_HASH_PASSES: '1' }
}

/** The api reports its HTTP port in Fastify's info line, so a test's api logs at info unless told lower. */
export function apiLogLevel(env: Record<string, string> = {}): { LOG_LEVEL: string } {
  const level = env.LOG_LEVEL ?? 'info'
  if (!['info', 'debug', 'trace'].includes(level)) throw new Error(`the tests read the api's port from its info line: LOG_LEVEL=${level} would hide it`)
  return { LOG_LEVEL: level }
}
