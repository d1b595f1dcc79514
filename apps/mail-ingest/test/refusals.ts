import type { RefusalReason } from '../src/metrics.js'
import type { IngestServer } from '../src/smtp-server.js'

/** A server's count of refusals for one reason (tempbox_smtp_refused_total), 0 before the first. */
export function refusalCount(ingest: IngestServer, reason: RefusalReason): Promise<number> {
  return metricValue(ingest, `tempbox_smtp_refused_total{reason="${reason}"}`)
}

/** One series' value as /metrics shows it (`name` or `name{label="…"}`), 0 when absent. */
export async function metricValue(ingest: IngestServer, series: string): Promise<number> {
  const line = (await ingest.metrics.registry.metrics()).split('\n').find((l) => l.startsWith(`${series} `))
  return line ? Number(line.slice(series.length + 1)) : 0
}
