import type { RefusalReason } from '../src/metrics.js'
import type { IngestServer } from '../src/smtp-server.js'

/** A server's count of refusals for one reason (tempbox_smtp_refused_total), 0 before the first. */
export async function refusalCount(ingest: IngestServer, reason: RefusalReason): Promise<number> {
  const series = `tempbox_smtp_refused_total{reason="${reason}"} `
  const line = (await ingest.metrics.registry.metrics()).split('\n').find((l) => l.startsWith(series))
  return line ? Number(line.slice(series.length)) : 0
}
