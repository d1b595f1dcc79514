import { describe, expect, it } from 'vitest'
import { loadConfig, storageConfig } from '../src/config.js'

describe('mail-ingest configuration', () => {
  it('refuses an in-memory database: mail stored there could never be read by the api', () => {
    expect(() => loadConfig({ DATABASE_PATH: ':memory:' })).toThrow('DATABASE_PATH must be the database file the api reads (got ":memory:")')
    expect(loadConfig({ DATABASE_PATH: '/tmp/tempbox.sqlite' }).databasePath).toBe('/tmp/tempbox.sqlite')
  })

  it('stores to PostgreSQL when DATABASE_URL names it, and to the SQLite file at DATABASE_PATH otherwise', () => {
    const onPostgres = loadConfig({ DATABASE_PATH: ':memory:', DATABASE_URL: ' postgres://tempbox@db:5432/tempbox ' })
    expect(onPostgres.databaseUrl).toBe('postgres://tempbox@db:5432/tempbox')
    expect(storageConfig(onPostgres, { poolSize: 2 })).toEqual({ path: ':memory:', url: 'postgres://tempbox@db:5432/tempbox', poolSize: 2 })
    const onFile = loadConfig({ DATABASE_PATH: '/tmp/tempbox.sqlite', DATABASE_URL: '' })
    expect([onFile.databasePath, onFile.databaseUrl]).toEqual(['/tmp/tempbox.sqlite', null])
    expect(storageConfig(onFile)).toEqual({ path: '/tmp/tempbox.sqlite' })
  })

  it('reads the PROXY protocol only when SMTP_PROXY_PROTOCOL=on, from the SMTP_TRUSTED_PROXIES it names', () => {
    expect(loadConfig({ DATABASE_PATH: '/tmp/t.sqlite' }).proxyProtocol).toBeNull()
    const on = loadConfig({ DATABASE_PATH: '/tmp/t.sqlite', SMTP_PROXY_PROTOCOL: 'on', SMTP_TRUSTED_PROXIES: '172.30.89.2, 10.8.0.0/16' }).proxyProtocol!
    expect(on.headerTimeoutMs).toBe(5_000)
    expect([on.trusted.includes('172.30.89.2'), on.trusted.includes('10.8.3.4'), on.trusted.includes('172.30.89.3')]).toEqual([true, true, false])
  })

  it('refuses to start with the PROXY protocol on and nobody trusted, or with an entry that is no address or range', () => {
    expect(() => loadConfig({ DATABASE_PATH: '/tmp/t.sqlite', SMTP_PROXY_PROTOCOL: 'on' }))
      .toThrow('SMTP_PROXY_PROTOCOL=on needs SMTP_TRUSTED_PROXIES: the addresses or CIDR ranges of the balancers allowed to name the client\'s address')
    expect(() => loadConfig({ DATABASE_PATH: '/tmp/t.sqlite', SMTP_PROXY_PROTOCOL: 'on', SMTP_TRUSTED_PROXIES: '10.0.0.0/33,balancer' }))
      .toThrow(/SMTP_TRUSTED_PROXIES has "10\.0\.0\.0\/33", which is neither an IP address nor a CIDR range \(e\.g\. 10\.0\.0\.0\/8\)\n {2}SMTP_TRUSTED_PROXIES has "balancer"/)
    expect(() => loadConfig({ DATABASE_PATH: '/tmp/t.sqlite', SMTP_PROXY_PROTOCOL: 'yes' })).toThrow('SMTP_PROXY_PROTOCOL must be "on" or "off" (got "yes")')
    expect(() => loadConfig({ DATABASE_PATH: '/tmp/t.sqlite', SMTP_PROXY_PROTOCOL: 'on', SMTP_TRUSTED_PROXIES: '10.0.0.1', SMTP_PROXY_HEADER_TIMEOUT_MS: '5' }))
      .toThrow('SMTP_PROXY_HEADER_TIMEOUT_MS must be an integer ≥ 100 (got "5")')
  })
})
