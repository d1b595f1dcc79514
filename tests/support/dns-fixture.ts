import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** Writes a DNS zone for mail-ingest's MAIL_AUTH_DNS_FIXTURE (tests run offline); `remove` deletes it. */
export function writeDnsFixture(zone: Record<string, unknown>): { path: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'tempbox-dns-'))
  const path = join(dir, 'dns.json')
  writeFileSync(path, JSON.stringify(zone))
  return { path, remove: () => rmSync(dir, { recursive: true, force: true }) }
}
