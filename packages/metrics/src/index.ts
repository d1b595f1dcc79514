export { serveMetrics, type MetricsServer, type MetricsServerOptions } from './serve-metrics.js'
export { metricsAddress, type MetricsAddress } from './metrics-address.js'
export { collectProcessMetrics } from './process-metrics.js'
