import { createHmac, randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { DEFAULT_MAIL_DOMAINS, duration, intReader, readMailDomains, readMessageTextMaxChars, type Env } from '@tempbox/config'
import { DEFAULT_POOL_SIZE, isPostgresUrl, PRIVATE_DIR_MODE, PRIVATE_FILE_MODE, resolveDatabasePath, type StorageConfig } from '@tempbox/db'
import { metricsAddress, type MetricsAddress } from '@tempbox/metrics'
import { checkPasswordHashCost, type PasswordHashCost } from './services/accounts/password-hash-cost.js'

export interface Config {
  host: string
  port: number
  /** HTTP worker processes; 1 serves from this process alone, more fork a cluster (src/cluster). */
  apiProcesses: number
  databasePath: string
  /** DATABASE_URL: a `postgres://` URL runs on PostgreSQL instead of the SQLite file at `databasePath`. */
  databaseUrl: string | undefined
  /** Connections each process keeps open to PostgreSQL at most (DATABASE_POOL_SIZE). */
  databasePoolSize: number
  /** Folder beside the database where generated local secrets are kept. */
  dataDir: string
  /** Domains we accept mail for, lower-cased; the first is the default for new addresses. */
  mailDomains: readonly string[]
  /** Built web app to serve, or null to serve the API alone. */
  webDistDir: string | null
  addressTtlMs: number
  /** How long a signed-in owner may keep a saved address, counted from its creation (SAVED_ADDRESS_MAX_DAYS). */
  savedAddressMaxMs: number
  /** How long an address once issued may not be issued again, counted from its expiry (ADDRESS_REUSE_BLOCK_DAYS). */
  reuseBlockMs: number
  sweepIntervalMs: number
  maxActiveAddressesPerIp: number
  maxGeneratedPerHourPerIp: number
  /** Misses (404) a client may get per minute from inbox routes, and apart from those from short links, before 429. */
  guessLimitPerMinute: number
  /** Inbox searches (`q`): per client per minute (SEARCH_RATE_LIMIT_PER_MINUTE), and the time one may scan (SEARCH_TIME_BUDGET_MS). */
  search: { perMinute: number; timeBudgetMs: number }
  /** Gap between `: ping` comments on an open event stream; shorter than the idle timeout of any proxy in front. */
  sseHeartbeatMs: number
  /** Event streams and long polls one client (IPv4 or IPv6 /64) may hold open at once on this host (MAX_STREAMS_PER_CLIENT). */
  maxStreamsPerClient: number
  /** How long the change feed may go without a completed check, or deaf, before /api/health says not ready (HEALTH_CHANGE_FEED_STALE_MS). */
  changeFeedStaleMs: number
  /** Bytes of inbox first pages kept ready to send (per API process). */
  listingCacheBytes: number
  /** Message views kept as the bytes a GET sends, per API process (MESSAGE_VIEW_CACHE_MB). */
  messageViewCacheBytes: number
  /** Trusted proxy setting handed to Fastify's `trustProxy` (false, a hop count or a list of addresses/CIDRs; never true). */
  trustProxy: false | number | string
  /** Send Strict-Transport-Security: TLS is terminated in front of us, so browsers must never use plain HTTP. */
  hsts: boolean
  /** Open the IP-location files in the background at start (production), not on the first lookup. */
  geoipPreload: boolean
  /** Bytes of the IP-location files (city databases, ASN table) kept in memory as read pages (GEOIP_CACHE_MB). */
  geoipCacheBytes: number
  jwtSecret: string
  /** How long an access token (the web's auth_token) works (ACCESS_TOKEN_TTL, default 15m). */
  accessTokenTtlMs: number
  /** How long a sign-in lasts through refresh-cookie renewals (REFRESH_TOKEN_TTL, formerly JWT_EXPIRES_IN; 7d). */
  refreshTokenTtlMs: number
  /** Signed-in browsers an account keeps at most (MAX_SESSIONS_PER_ACCOUNT); a new sign-in ends the oldest. */
  maxSessionsPerAccount: number
  /** Failed sign-ins per account per 15 minutes before every sign-in to it is refused (LOGIN_FAILURES_PER_ACCOUNT). */
  loginFailuresPerAccount: number
  /** argon2id cost of new password hashes (PASSWORD_HASH_MEMORY_KIB, PASSWORD_HASH_PASSES); production refuses less than OWASP's minimum. */
  passwordHash: PasswordHashCost
  adminSetupKey: string
  /** Show the setup key on /admin-setup while setup is open (spec); off in production unless SHOW_SETUP_KEY=true. */
  showSetupKey: boolean
  isProduction: boolean
  logLevel: string
  /** An access log line per request (LOG_REQUESTS=true): off by default, it cost ~0.8 ms of CPU per request. */
  logRequests: boolean
  /** Where `/metrics` is served (METRICS_HOST, METRICS_PORT): a listener of its own, never the public port. */
  metrics: MetricsAddress
  /** Base of the absolute links sent to webhooks (the message, its source, its attachments). */
  publicUrl: string
  webhooks: WebhookConfig
  /** Characters of a text part a message view carries (MESSAGE_TEXT_MAX_CHARS); the rest is in the .eml download. */
  messageTextMaxChars: number
  /**
   * Attachments a message view lists, the first by position (MESSAGE_VIEW_MAX_ATTACHMENTS); the view says how many
   * there are, every one downloads by its index, and webhook payloads link as many.
   */
  messageViewMaxAttachments: number
  /** Addresses people write to, shown by the web app (GET /api/config): SUPPORT_EMAIL, PRIVACY_EMAIL, LEGAL_EMAIL. */
  siteEmails: { support: string; privacy: string; legal: string }
}

export interface WebhookConfig {
  /** Plain `http` targets (a local CI receiver); otherwise https only. */
  allowHttp: boolean
  /** Targets on loopback, private, link-local or metadata addresses (a self-hosted CI on one machine). */
  allowPrivate: boolean
  /** One attempt's whole budget: connect, TLS, send and the response's status line. */
  timeoutMs: number
  /** First retry delay; doubled after each failure up to an hour. */
  retryBaseMs: number
  /** After this long since the message arrived, a delivery that never succeeded is given up. */
  retryWindowMs: number
  /** Attempts in flight at once (the whole service). */
  concurrency: number
  /** Queued deliveries allowed in all and per inbox; beyond them a delivery is recorded as `dropped`. */
  maxQueued: number
  maxQueuedPerInbox: number
  /** Webhooks one client may set per minute (each resolves a host name). */
  setPerMinute: number
}

/** The port Prometheus exporters conventionally start from; mail-ingest takes the next one. */
const DEFAULT_METRICS_PORT = 9464

/** Addresses live 24 hours (spec §9). */
const DEFAULT_ADDRESS_TTL_HOURS = 24

/**
 * Where this process's storage lives (PostgreSQL at DATABASE_URL, else the SQLite file), for every `openStorage` of
 * the api: one place, so no connection of the process can end up on another database than the rest.
 */
export function storageConfig(config: Config, options: Pick<StorageConfig, 'busyTimeoutMs' | 'durable' | 'poolSize'> = {}): StorageConfig {
  return { path: config.databasePath, url: config.databaseUrl, poolSize: config.databasePoolSize, ...options }
}

/**
 * On PostgreSQL the node that runs the one-per-service jobs holds their lock on a connection of its pool for as long
 * as it leads (service-state/postgres-leadership.ts): with a pool of one, that node could never query again.
 */
function poolSize(size: number, postgres: boolean, problems: string[]): number {
  if (postgres && size < 2) {
    problems.push(`DATABASE_POOL_SIZE must be at least 2 on PostgreSQL: one connection holds the lock of the service's one-per-service jobs (got ${size})`)
  }
  return size
}

/** Reads and validates the environment once; reports every problem at the same time. */
export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = []
  const int = intReader(env, problems)

  const databasePath = resolveDatabasePath(env.DATABASE_PATH)
  const dataDir = env.DATA_DIR ? env.DATA_DIR : databasePath === ':memory:' ? '' : dirname(databasePath)
  const isProduction = env.APP_ENV === 'production'
  const mailDomains = readMailDomains(env, problems)

  // On PostgreSQL several nodes serve as one: a secret made up by each node would split its tokens and its shared
  // limits (keyed by an HMAC under this secret) from every other node's.
  const sharedDatabase = isPostgresUrl(env.DATABASE_URL)
  const jwtSecret = env.JWT_SECRET || (isProduction || sharedDatabase ? '' : readOrCreateSecret(dataDir, 'jwt-secret'))
  if (!jwtSecret) {
    problems.push(
      isProduction
        ? 'JWT_SECRET must be set when APP_ENV=production'
        : 'JWT_SECRET must be set when DATABASE_URL is set: every api node must sign tokens and key the shared limits with the same secret',
    )
  }
  else if (jwtSecret.length < 32) problems.push('JWT_SECRET must be at least 32 characters')
  // A key of each node's own would be shown (or logged) by one node and refused by the next behind the balancer.
  const adminSetupKey = env.ADMIN_SETUP_KEY || (sharedDatabase ? sharedSetupKey(jwtSecret) : readOrCreateSecret(dataDir, 'admin-setup-key'))

  const supportEmail = parseEmail('SUPPORT_EMAIL', env.SUPPORT_EMAIL, `support@${mailDomains[0] ?? DEFAULT_MAIL_DOMAINS[0]}`, problems)

  const config: Config = {
    host: env.HOST || '127.0.0.1',
    port: int('PORT', 3000),
    apiProcesses: int('API_PROCESSES', 1, 1),
    databasePath,
    databaseUrl: isPostgresUrl(env.DATABASE_URL) ? env.DATABASE_URL.trim() : undefined,
    databasePoolSize: poolSize(int('DATABASE_POOL_SIZE', DEFAULT_POOL_SIZE, 1), sharedDatabase, problems),
    dataDir,
    mailDomains,
    webDistDir: env.WEB_DIST_DIR === '' ? null : (env.WEB_DIST_DIR ?? defaultWebDist()),
    addressTtlMs: int('ADDRESS_TTL_HOURS', DEFAULT_ADDRESS_TTL_HOURS, 1) * 3_600_000,
    savedAddressMaxMs: int('SAVED_ADDRESS_MAX_DAYS', 7, 1) * 86_400_000,
    reuseBlockMs: int('ADDRESS_REUSE_BLOCK_DAYS', 365, 1) * 86_400_000,
    sweepIntervalMs: int('SWEEP_INTERVAL_SECONDS', 60, 1) * 1000,
    maxActiveAddressesPerIp: int('MAX_ACTIVE_ADDRESSES_PER_IP', 5, 1),
    maxGeneratedPerHourPerIp: int('MAX_GENERATED_PER_HOUR_PER_IP', 100, 1),
    guessLimitPerMinute: int('GUESS_LIMIT_PER_MINUTE', 30, 1),
    search: { perMinute: int('SEARCH_RATE_LIMIT_PER_MINUTE', 60, 1), timeBudgetMs: int('SEARCH_TIME_BUDGET_MS', 2_000, 1) },
    sseHeartbeatMs: int('SSE_HEARTBEAT_MS', 15_000, 1),
    maxStreamsPerClient: int('MAX_STREAMS_PER_CLIENT', 20, 1),
    changeFeedStaleMs: int('HEALTH_CHANGE_FEED_STALE_MS', 5_000, 1),
    listingCacheBytes: int('LISTING_CACHE_MB', 32, 1) * 1024 * 1024,
    messageViewCacheBytes: int('MESSAGE_VIEW_CACHE_MB', 32, 1) * 1024 * 1024,
    messageTextMaxChars: readMessageTextMaxChars(int),
    messageViewMaxAttachments: int('MESSAGE_VIEW_MAX_ATTACHMENTS', 100, 1),
    trustProxy: parseTrustProxy(env.TRUST_PROXY, problems),
    // In production behind a trusted proxy, TLS is what that proxy is there for; HSTS=false/true overrides.
    hsts: env.HSTS ? env.HSTS === 'true' : isProduction && parseTrustProxy(env.TRUST_PROXY) !== false,
    geoipPreload: env.GEOIP_PRELOAD ? env.GEOIP_PRELOAD === 'true' : isProduction,
    geoipCacheBytes: int('GEOIP_CACHE_MB', 4, 1) * 1024 * 1024,
    jwtSecret,
    accessTokenTtlMs: duration('ACCESS_TOKEN_TTL', env.ACCESS_TOKEN_TTL, 15 * 60_000, problems),
    refreshTokenTtlMs: duration('REFRESH_TOKEN_TTL', env.REFRESH_TOKEN_TTL || env.JWT_EXPIRES_IN, 7 * 86_400_000, problems),
    maxSessionsPerAccount: int('MAX_SESSIONS_PER_ACCOUNT', 20, 1),
    loginFailuresPerAccount: int('LOGIN_FAILURES_PER_ACCOUNT', 10, 1),
    // OWASP's minimum profile by default; argon2's own floor (8 KiB for our one lane, one pass) below that.
    // OWASP's profiles defend alike; 7 MiB × 5 passes costs the CPU of 19 MiB × 2 and holds 12 MiB less per hash in flight.
    passwordHash: checkPasswordHashCost({ memoryKib: int('PASSWORD_HASH_MEMORY_KIB', 7_168, 8), passes: int('PASSWORD_HASH_PASSES', 5, 1) }, isProduction, problems),
    adminSetupKey,
    showSetupKey: env.SHOW_SETUP_KEY ? env.SHOW_SETUP_KEY === 'true' : !isProduction,
    isProduction,
    logLevel: env.LOG_LEVEL || 'info',
    logRequests: env.LOG_REQUESTS === 'true',
    metrics: metricsAddress(env, 'METRICS_PORT', DEFAULT_METRICS_PORT, problems),
    publicUrl: parsePublicUrl(env.PUBLIC_URL, env.HOST || '127.0.0.1', int('PORT', 3000), problems),
    webhooks: {
      allowHttp: env.WEBHOOK_ALLOW_HTTP === 'true',
      allowPrivate: env.WEBHOOK_ALLOW_PRIVATE === 'true',
      timeoutMs: int('WEBHOOK_TIMEOUT_MS', 5_000, 100),
      retryBaseMs: int('WEBHOOK_RETRY_BASE_MS', 2_000, 10),
      retryWindowMs: int('WEBHOOK_RETRY_HOURS', 24, 1) * 3_600_000,
      concurrency: int('WEBHOOK_CONCURRENCY', 32, 1),
      maxQueued: int('WEBHOOK_MAX_QUEUED', 10_000, 1),
      maxQueuedPerInbox: int('WEBHOOK_MAX_QUEUED_PER_INBOX', 100, 1),
      setPerMinute: int('WEBHOOK_SET_PER_MINUTE', 30, 1),
    },
    siteEmails: {
      support: supportEmail,
      privacy: parseEmail('PRIVACY_EMAIL', env.PRIVACY_EMAIL, supportEmail, problems),
      legal: parseEmail('LEGAL_EMAIL', env.LEGAL_EMAIL, supportEmail, problems),
    },
  }
  // Each process would open its own empty in-memory database.
  if (config.apiProcesses > 1 && !config.databaseUrl && databasePath === ':memory:') problems.push('API_PROCESSES > 1 needs a database file: set DATABASE_PATH')
  // Anything else would quietly serve from the SQLite file while the operator believes every node shares one database.
  if (env.DATABASE_URL?.trim() && !config.databaseUrl) problems.push('DATABASE_URL must be a postgres:// or postgresql:// URL (or unset, for the SQLite file at DATABASE_PATH)')
  if (problems.length > 0) throw new Error(`[config] invalid environment:\n  - ${problems.join('\n  - ')}`)
  return Object.freeze(config)
}

/** Shown to people as a mailto: link, so only the plain `local@domain` form is taken. */
function parseEmail(name: string, raw: string | undefined, fallback: string, problems: string[]): string {
  const value = raw?.trim()
  if (!value) return fallback
  if (value.length > 254 || !/^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>".]+$/.test(value)) {
    problems.push(`${name} must be a plain email address such as support@tempbox.example (got "${raw}")`)
    return fallback
  }
  return value
}

/** Without PUBLIC_URL, links point at the listen address: right for local use, wrong behind a proxy. */
function parsePublicUrl(raw: string | undefined, host: string, port: number, problems: string[]): string {
  if (!raw) return `http://${host.includes(':') ? `[${host}]` : host}:${port}`
  try {
    const url = new URL(raw)
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('not http(s)')
    return url.href.replace(/\/+$/, '')
  } catch {
    problems.push(`PUBLIC_URL must be an http(s) URL such as https://tempbox.example (got "${raw}")`)
    return ''
  }
}

function parseTrustProxy(raw: string | undefined, problems: string[] = []): false | number | string {
  if (!raw || raw === 'false') return false
  // `true` takes the leftmost X-Forwarded-For, which the client writes: every client could pick its own IP.
  if (raw === 'true') {
    problems.push(
      'TRUST_PROXY=true would let every client choose its own IP for every limit. Set the number of proxies in front of the ' +
        'api (TRUST_PROXY=1 for one) or their addresses (TRUST_PROXY=10.0.0.2 or a CIDR list), or false for none.',
    )
    return false
  }
  if (/^\d+$/.test(raw)) return Number(raw)
  return raw
}

function defaultWebDist(): string | null {
  const dir = new URL('../../web/dist', import.meta.url).pathname
  return existsSync(dir) ? dir : null
}

/**
 * Every node on one database derives the same setup key from the secret they share; knowing it gives nothing that
 * JWT_SECRET itself does not (it signs any role's token).
 */
function sharedSetupKey(jwtSecret: string): string {
  return createHmac('sha256', jwtSecret).update('tempbox admin setup key').digest('hex')
}

/** Local runs keep a generated secret in the data folder so restarts keep tokens and the setup key valid. */
function readOrCreateSecret(dataDir: string, name: string): string {
  if (!dataDir) return randomBytes(32).toString('hex')
  const file = join(dataDir, name)
  if (existsSync(file)) return readFileSync(file, 'utf8').trim()
  mkdirSync(dataDir, { recursive: true, mode: PRIVATE_DIR_MODE })
  const secret = randomBytes(32).toString('hex')
  writeFileSync(file, secret + '\n', { mode: PRIVATE_FILE_MODE })
  return secret
}
