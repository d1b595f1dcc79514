import { serveMetrics, type MetricsServer } from '@tempbox/metrics'
import { AggregatorRegistry, type Registry } from 'prom-client'
import type { Config } from '../config.js'

/**
 * The primary serves one `/metrics` for the whole service: at each scrape it asks every worker for its registry over
 * the cluster's IPC channel and adds them up (counters and histograms summed; database-wide gauges taken once).
 */
export function serveClusterMetrics(config: Config, onError: (error: unknown) => void): Promise<MetricsServer> {
  const aggregator = new AggregatorRegistry()
  return serveMetrics({
    ...config.metrics,
    render: async () => ({ contentType: aggregator.contentType, body: await aggregator.clusterMetrics() }),
    onError,
  })
}

/** Worker side: answer the primary's requests with this worker's registry. */
export function shareWorkerMetrics(registry: Registry): void {
  AggregatorRegistry.setRegistries([registry])
  // Constructing one in a worker is what installs prom-client's listener for the primary's requests.
  new AggregatorRegistry()
}
