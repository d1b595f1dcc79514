import { collectDefaultMetrics, type Registry } from 'prom-client'

/**
 * Node's process metrics (CPU, memory, GC, event-loop lag) under `prefix`. The lag histogram samples every 100 ms, not
 * prom-client's default 10 ms: each sample wakes the process, and 100 wake-ups a second were about a sixth of an idle
 * api's CPU. Ten samples a second still give its percentiles; the lag itself is measured to the nanosecond either way.
 */
export function collectProcessMetrics(registry: Registry, prefix: string): void {
  collectDefaultMetrics({ register: registry, prefix, eventLoopMonitoringPrecision: 100 })
}
