import { intReader, onOff, readMailDomains, readMessageTextMaxChars, type Env, type IntReader } from '@tempbox/config'
import { DEFAULT_SEARCH_TEXT_MAX_CHARS, isPostgresUrl, resolveDatabasePath, type StorageConfig } from '@tempbox/db'
import { parseAddressList, type AddressList } from '@tempbox/ip'
import { metricsAddress, type MetricsAddress } from '@tempbox/metrics'
import { loadMailAuthConfig, type MailAuthConfig } from './mail-auth/config.js'

export interface Config {
  host: string
  port: number
  /** The SQLite file (when `databaseUrl` is null). */
  databasePath: string
  /** DATABASE_URL when it names PostgreSQL: mail is stored there, and any number of ingest nodes may share it. */
  databaseUrl: string | null
  /** Domains we accept mail for, lower-cased. Anything else is refused at RCPT: we are never an open relay. */
  mailDomains: readonly string[]
  /** Largest message accepted, advertised with SIZE and enforced while streaming (552 beyond it). */
  maxMessageBytes: number
  /** RCPT TO commands accepted per message (452 beyond it). */
  maxRecipients: number
  /** Simultaneous connections; one-mail-per-connection senders need many at once. */
  maxClients: number
  /** A client silent for this long is disconnected (idle and slow clients). */
  socketTimeoutMs: number
  /** Hard cap on one connection's life, however active: a client trickling bytes cannot hold a slot forever. */
  maxSessionMs: number
  /** How long SIGTERM waits for open sessions before closing them. */
  closeTimeoutMs: number
  /** How long a found inbox is trusted without asking the database again. */
  inboxCacheMs: number
  /** Most messages written in one group-commit transaction. */
  maxBatchMessages: number
  /** Threads parsing messages beside the SMTP thread at most (started on demand); 0 parses and writes on the SMTP thread. */
  parseWorkers: number
  /** Plain-text messages up to this size are parsed on the store thread itself while no parse worker runs (parse-workers.ts). */
  parseOnStoreMaxBytes: number
  /** Each worker thread's young generation in MB (INGEST_WORKER_YOUNG_GENERATION_MB): V8 grows it to 48 MB by default. */
  workerYoungGenerationMb: number
  /** The same for the thread off the path to `250` (sender check, WAL checkpoint, search index): INGEST_CHECK_WORKER_YOUNG_GENERATION_MB. */
  checkWorkerYoungGenerationMb: number
  /** Each worker thread's old-generation limit in MB (INGEST_WORKER_OLD_GENERATION_MB): how soon V8 collects it. */
  workerOldGenerationMb: number
  /** Messages one inbox may hold (452 at RCPT, 552/452 at DATA beyond it). */
  maxMessagesPerInbox: number
  /** Bytes of mail (sizes as received) one inbox may hold. */
  maxInboxBytes: number
  /** Characters of a text part the api's message view shows (MESSAGE_TEXT_MAX_CHARS, as the api reads it). */
  messageTextMaxChars: number
  /** Characters of subject, sender and text kept folded for search (SEARCH_TEXT_MAX_CHARS): a search sees no further. */
  searchTextMaxChars: number
  /** The database file may not grow past this (452 4.3.1 instead); 0: no cap but the disk's. */
  maxDatabaseBytes: number
  /** Mail is refused with 452 4.3.1 while the database's disk has less free space than this. */
  minFreeDiskBytes: number
  /** Simultaneous sessions from one client (an IPv4 address or an IPv6 /64); 421 4.7.0 beyond it. */
  maxClientsPerIp: number
  /** Message bytes held in memory by all sessions together until stored; new DATA gets 451 4.3.1 beyond it. */
  maxInflightBytes: number
  /** Unknown recipients one session may name before it is cut off with 421 (Postfix's hard error limit). */
  maxUnknownRecipients: number
  /** Never-issued recipients one client may name per minute across its sessions (and nodes); past it every RCPT gets 450 4.7.1. */
  guessLimitPerMinute: number
  /** Clients the in-memory guess window tracks at most (SQLite; the least recently counted go first). */
  guessMaxClients: number
  /** SMTP_FAULT_TAGS=on: `+greylist`, `+tempfail<N>`, `+reject`, `+slow<N>`, `+disconnect`, `+full` misbehave on purpose (sub-address.ts). */
  faultTags: boolean
  /** How long `+greylist` answers 451 4.7.1 after a sender/recipient pair's first try. */
  faultGreylistMs: number
  /** A greylist/tempfail entry is forgotten this long after its last try. */
  faultStateTtlMs: number
  /** Greylist/tempfail entries one client keeps at most (its least recently tried go first). */
  faultStateMaxPerClient: number
  /** Greylist/tempfail entries kept in memory at most (SQLite; PostgreSQL keeps them in a table, per client capped). */
  faultStateMaxEntries: number
  /** Delivery log entries each inbox keeps (DELIVERY_LOG_ENTRIES). */
  deliveryLogEntries: number
  /** Refused/deferred delivery log entries waiting for their batched write; more are dropped (and counted). */
  deliveryLogMaxQueued: number
  /** Certificate chain and key (PEM files) for STARTTLS; null sends and receives mail in clear text. */
  tls: { certPath: string; keyPath: string } | null
  /** How often the certificate files are checked for a replacement (no restart needed). */
  tlsReloadCheckMs: number
  /** Where `/metrics` is served (METRICS_HOST, INGEST_METRICS_PORT): never the SMTP port. */
  metrics: MetricsAddress
  /** How often ingest tells the API's readiness check that it is up; three missed beats make the API unready. */
  heartbeatMs: number
  /** The sender check after each commit (SPF, DKIM, DMARC, ARC). */
  mailAuth: MailAuthConfig
  /**
   * SMTP_PROXY_PROTOCOL=on: connections from `trusted` (SMTP_TRUSTED_PROXIES) open with a PROXY protocol header naming
   * the client, within `headerTimeoutMs`; null (the default) reads none and refuses a header from anyone.
   */
  proxyProtocol: { trusted: AddressList; headerTimeoutMs: number } | null
}

/** 10 MB: big enough for ordinary attachments, small enough to keep one message in memory. */
const DEFAULT_MAX_MESSAGE_BYTES = 10 * 1024 * 1024
/** RFC 5321 asks servers to accept at least 100 recipients; a temp inbox never needs more. */
const DEFAULT_MAX_RECIPIENTS = 100
/** Well above the 64 concurrent one-mail connections the benchmark opens. */
const DEFAULT_MAX_CLIENTS = 1000
/** One minute of silence ends a session; RFC 5321 allows longer but nobody legitimate needs it here. */
const DEFAULT_SOCKET_TIMEOUT_MS = 60_000
/** 10 minutes: a 10 MB message still fits at 17 KB/s, the slowest rate worth waiting for. */
const DEFAULT_MAX_SESSION_MS = 10 * 60_000
const DEFAULT_CLOSE_TIMEOUT_MS = 5_000
/** Short enough that a deleted inbox stops receiving almost at once; long enough to absorb bursts. */
const DEFAULT_INBOX_CACHE_MS = 2_000
const DEFAULT_MAX_BATCH_MESSAGES = 256
/** One parser beside the SMTP thread and the writer fits a 2-core machine; raise it on bigger ones. */
const DEFAULT_PARSE_WORKERS = 1
/**
 * A 2 KB text parses in ~80 µs, less than its hand-over to a parse worker costs (a wake-up, a structured clone of the
 * parsed message): on the store thread, 2 KB × 16 ran 1.16× the msg/s at 0.74× the CPU. Larger or HTML mail held up the commits there.
 */
const DEFAULT_PARSE_ON_STORE_MAX_BYTES = 16 * 1024
/** A third of V8's own 48 MB: 26 MB less resident memory after 20,000 mails; 8 or less slowed 100 KB mail (more promotion). */
const DEFAULT_WORKER_YOUNG_GENERATION_MB = 16
/** Off the path to `250`; 4 MB cost 100 KB mail +16 % CPU per message (DKIM body hashes), 8 MB nothing measurable. */
const DEFAULT_CHECK_WORKER_YOUNG_GENERATION_MB = 8
/** V8 lets an old generation grow to 4x its live size before collecting when the limit is ≥ 2 GB, 1.6x at 1 GB. */
const DEFAULT_WORKER_OLD_GENERATION_MB = 1024
/** Beside the API's 9464 on the same host (`pnpm start` runs both). */
const DEFAULT_METRICS_PORT = 9465
/** One small write every 5 s; the API notices a stopped ingest within 15 s. */
const DEFAULT_HEARTBEAT_MS = 5_000

/** 1,000 messages and 100 MB: far more than a disposable inbox needs, little enough that a flood of one stays small. */
const DEFAULT_MAX_MESSAGES_PER_INBOX = 1000
const DEFAULT_MAX_INBOX_BYTES = 100 * 1024 * 1024
/** Room for SQLite to checkpoint and for the API to keep working when mail stops. */
const DEFAULT_MIN_FREE_DISK_BYTES = 256 * 1024 * 1024
/** A whole office behind one NAT sends from one address; a single sender needs far fewer. */
const DEFAULT_MAX_CLIENTS_PER_IP = 20
/** 25 messages of the largest size at once, or thousands of ordinary ones. */
const DEFAULT_MAX_INFLIGHT_BYTES = 256 * 1024 * 1024
/** A typo or two is normal; a sender guessing addresses names many. */
const DEFAULT_MAX_UNKNOWN_RECIPIENTS = 5
/** As the api's GUESS_LIMIT_PER_MINUTE: SMTP is no cheaper way to guess an address than HTTP. */
const DEFAULT_GUESS_LIMIT_PER_MINUTE = 30
const DEFAULT_GUESS_MAX_CLIENTS = 100_000
/** As a common greylisting delay (Postgrey's default is 300 s): short enough for a test to wait it out. */
const DEFAULT_FAULT_GREYLIST_SECONDS = 60
/** Longer than any sane retry schedule of a test, short enough that the state stays small. */
const DEFAULT_FAULT_STATE_TTL_SECONDS = 3600
const DEFAULT_FAULT_STATE_MAX_PER_CLIENT = 1000
const DEFAULT_FAULT_STATE_MAX_ENTRIES = 100_000
const DEFAULT_DELIVERY_LOG_ENTRIES = 100
/** A second of refusals at a rate no real sender reaches; about 200 bytes each. */
const DEFAULT_DELIVERY_LOG_MAX_QUEUED = 10_000
/** Postfix's smtpd_upstream_proxy_timeout: a balancer sends its header at once, so a few seconds is plenty. */
const DEFAULT_PROXY_HEADER_TIMEOUT_MS = 5_000

/** Reads and validates the environment once; reports every problem at the same time. */
export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = []
  const int = intReader(env, problems)
  const config: Config = {
    host: env.SMTP_HOST || '127.0.0.1',
    port: int('SMTP_PORT', 2525),
    databasePath: resolveDatabasePath(env.DATABASE_PATH),
    databaseUrl: isPostgresUrl(env.DATABASE_URL) ? env.DATABASE_URL.trim() : null,
    mailDomains: readMailDomains(env, problems),
    maxMessageBytes: int('MAX_MESSAGE_BYTES', DEFAULT_MAX_MESSAGE_BYTES, 1024),
    maxRecipients: int('SMTP_MAX_RECIPIENTS', DEFAULT_MAX_RECIPIENTS, 1),
    maxClients: int('SMTP_MAX_CLIENTS', DEFAULT_MAX_CLIENTS, 1),
    socketTimeoutMs: int('SMTP_SOCKET_TIMEOUT_MS', DEFAULT_SOCKET_TIMEOUT_MS, 1000),
    maxSessionMs: int('SMTP_MAX_SESSION_MS', DEFAULT_MAX_SESSION_MS, 1000),
    closeTimeoutMs: int('SMTP_CLOSE_TIMEOUT_MS', DEFAULT_CLOSE_TIMEOUT_MS, 0),
    inboxCacheMs: int('SMTP_INBOX_CACHE_MS', DEFAULT_INBOX_CACHE_MS, 0),
    maxBatchMessages: int('SMTP_MAX_BATCH_MESSAGES', DEFAULT_MAX_BATCH_MESSAGES, 1),
    parseWorkers: int('SMTP_PARSE_WORKERS', DEFAULT_PARSE_WORKERS, 0),
    parseOnStoreMaxBytes: int('SMTP_PARSE_ON_STORE_MAX_BYTES', DEFAULT_PARSE_ON_STORE_MAX_BYTES, 0),
    workerYoungGenerationMb: int('INGEST_WORKER_YOUNG_GENERATION_MB', DEFAULT_WORKER_YOUNG_GENERATION_MB, 1),
    checkWorkerYoungGenerationMb: int('INGEST_CHECK_WORKER_YOUNG_GENERATION_MB', DEFAULT_CHECK_WORKER_YOUNG_GENERATION_MB, 1),
    workerOldGenerationMb: int('INGEST_WORKER_OLD_GENERATION_MB', DEFAULT_WORKER_OLD_GENERATION_MB, 64),
    tls: env.SMTP_TLS_CERT && env.SMTP_TLS_KEY ? { certPath: env.SMTP_TLS_CERT, keyPath: env.SMTP_TLS_KEY } : null,
    tlsReloadCheckMs: int('SMTP_TLS_RELOAD_CHECK_MS', 60_000, 100),
    metrics: metricsAddress(env, 'INGEST_METRICS_PORT', DEFAULT_METRICS_PORT, problems),
    heartbeatMs: int('INGEST_HEARTBEAT_MS', DEFAULT_HEARTBEAT_MS, 100),
    maxMessagesPerInbox: int('MAX_MESSAGES_PER_INBOX', DEFAULT_MAX_MESSAGES_PER_INBOX, 1),
    maxInboxBytes: int('MAX_INBOX_BYTES', DEFAULT_MAX_INBOX_BYTES, 1024),
    messageTextMaxChars: readMessageTextMaxChars(int),
    searchTextMaxChars: int('SEARCH_TEXT_MAX_CHARS', DEFAULT_SEARCH_TEXT_MAX_CHARS, 1),
    maxDatabaseBytes: int('MAX_DATABASE_BYTES', 0, 0),
    minFreeDiskBytes: int('MIN_FREE_DISK_BYTES', DEFAULT_MIN_FREE_DISK_BYTES, 0),
    maxClientsPerIp: int('SMTP_MAX_CLIENTS_PER_IP', DEFAULT_MAX_CLIENTS_PER_IP, 1),
    maxInflightBytes: int('SMTP_MAX_INFLIGHT_BYTES', DEFAULT_MAX_INFLIGHT_BYTES, 1024),
    maxUnknownRecipients: int('SMTP_MAX_UNKNOWN_RECIPIENTS', DEFAULT_MAX_UNKNOWN_RECIPIENTS, 1),
    guessLimitPerMinute: int('SMTP_GUESS_LIMIT_PER_MINUTE', DEFAULT_GUESS_LIMIT_PER_MINUTE, 1),
    guessMaxClients: int('SMTP_GUESS_MAX_CLIENTS', DEFAULT_GUESS_MAX_CLIENTS, 1),
    faultTags: onOff(env, 'SMTP_FAULT_TAGS', true, problems),
    faultGreylistMs: int('SMTP_FAULT_GREYLIST_SECONDS', DEFAULT_FAULT_GREYLIST_SECONDS, 0) * 1000,
    faultStateTtlMs: int('SMTP_FAULT_STATE_TTL_SECONDS', DEFAULT_FAULT_STATE_TTL_SECONDS, 1) * 1000,
    faultStateMaxPerClient: int('SMTP_FAULT_STATE_MAX_PER_CLIENT', DEFAULT_FAULT_STATE_MAX_PER_CLIENT, 1),
    faultStateMaxEntries: int('SMTP_FAULT_STATE_MAX_ENTRIES', DEFAULT_FAULT_STATE_MAX_ENTRIES, 1),
    deliveryLogEntries: int('DELIVERY_LOG_ENTRIES', DEFAULT_DELIVERY_LOG_ENTRIES, 1),
    deliveryLogMaxQueued: int('DELIVERY_LOG_MAX_QUEUED', DEFAULT_DELIVERY_LOG_MAX_QUEUED, 1),
    mailAuth: loadMailAuthConfig(env, int, problems),
    proxyProtocol: parseProxyProtocol(env, int, problems),
  }
  if (!env.SMTP_TLS_CERT !== !env.SMTP_TLS_KEY) problems.push('SMTP_TLS_CERT and SMTP_TLS_KEY must be set together (or neither)')
  if (config.port > 65535) problems.push(`SMTP_PORT must be ≤ 65535 (got ${config.port})`)
  // Else a greylisted pair would be forgotten before its delay ends, and greylisted for ever.
  if (config.faultStateTtlMs <= config.faultGreylistMs) problems.push('SMTP_FAULT_STATE_TTL_SECONDS must be greater than SMTP_FAULT_GREYLIST_SECONDS')
  // The api reads what ingest writes, and the store and checkpoint threads open the file too: a private in-memory
  // database would take mail that nobody can ever read.
  if (!config.databaseUrl && config.databasePath === ':memory:') problems.push('DATABASE_PATH must be the database file the api reads (got ":memory:")')
  if (problems.length > 0) throw new Error(`[config] invalid environment:\n  ${problems.join('\n  ')}`)
  return Object.freeze(config)
}

/**
 * The storage this configuration names, for each thread that opens its own (a pool of `poolSize` connections on
 * PostgreSQL; the SQLite file otherwise).
 */
export function storageConfig(config: Pick<Config, 'databasePath' | 'databaseUrl'>, options: Omit<StorageConfig, 'path' | 'url'> = {}): StorageConfig {
  return { path: config.databasePath, ...(config.databaseUrl ? { url: config.databaseUrl } : {}), ...options }
}

function parseProxyProtocol(env: Env, int: IntReader, problems: string[]): Config['proxyProtocol'] {
  const switchValue = (env.SMTP_PROXY_PROTOCOL || 'off').toLowerCase()
  if (!['on', 'off'].includes(switchValue)) problems.push(`SMTP_PROXY_PROTOCOL must be "on" or "off" (got "${env.SMTP_PROXY_PROTOCOL}")`)
  const { list, invalid } = parseAddressList(env.SMTP_TRUSTED_PROXIES ?? '')
  for (const entry of invalid) problems.push(`SMTP_TRUSTED_PROXIES has "${entry}", which is neither an IP address nor a CIDR range (e.g. 10.0.0.0/8)`)
  const headerTimeoutMs = int('SMTP_PROXY_HEADER_TIMEOUT_MS', DEFAULT_PROXY_HEADER_TIMEOUT_MS, 100)
  if (switchValue !== 'on') return null
  // With nobody trusted, every balancer's header would be refused, and all its mail with it.
  if (list.entries.length === 0) problems.push('SMTP_PROXY_PROTOCOL=on needs SMTP_TRUSTED_PROXIES: the addresses or CIDR ranges of the balancers allowed to name the client\'s address')
  return { trusted: list, headerTimeoutMs }
}
