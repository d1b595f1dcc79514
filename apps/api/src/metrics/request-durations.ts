import type { Metric } from 'prom-client'

/** Upper bounds (seconds) of the request-duration buckets. */
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10]
const STATUS_CLASSES = ['0xx', '1xx', '2xx', '3xx', '4xx', '5xx']

type Labels = { method: string; route: string; status: string }
/** One line of the exposition, as prom-client's own metrics give it in `get()`. */
interface Value {
  labels: Record<string, string | number>
  value: number
  metricName: string
}

interface Series {
  labels: Labels
  /** Observations per bucket (not cumulative); the last slot counts those above every bound. */
  counts: Float64Array
  sum: number
  count: number
}

/** One route's series, found once at start: an answer only adds to the series of its method and status class. */
export class RouteDurations {
  private readonly byMethod = new Map<string, (Series | undefined)[]>()

  constructor(
    private readonly route: string,
    private readonly all: Series[],
  ) {}

  observe(method: string, statusCode: number, seconds: number): void {
    let byStatus = this.byMethod.get(method)
    if (!byStatus) this.byMethod.set(method, (byStatus = []))
    const at = Math.min(5, Math.max(0, Math.floor(statusCode / 100)))
    let series = byStatus[at]
    if (!series) {
      series = { labels: { method, route: this.route, status: STATUS_CLASSES[at]! }, counts: new Float64Array(BUCKETS.length + 1), sum: 0, count: 0 }
      byStatus[at] = series
      this.all.push(series)
    }
    let b = 0
    while (b < BUCKETS.length && seconds > BUCKETS[b]!) b++
    series.counts[b]!++
    series.sum += seconds
    series.count++
  }
}

/**
 * `tempbox_http_request_duration_seconds`, a Prometheus histogram by method, route pattern and status class, counted
 * in plain arrays: prom-client's Histogram validates and hashes the labels on every observation, the bulk of what
 * timing a request cost. Exposed as prom-client exposes a histogram (same JSON, so the cluster's primary sums it).
 */
export class RequestDurations {
  readonly name = 'tempbox_http_request_duration_seconds'
  readonly help = 'HTTP requests by method, route pattern (never the URL: it may hold an address) and status class'
  readonly type = 'histogram'
  readonly aggregator = 'sum'
  private readonly all: Series[] = []
  private readonly routes = new Map<string, RouteDurations>()

  /** The series of one route pattern (`'unmatched'` for requests no route took); the same object for the same pattern. */
  route(pattern: string): RouteDurations {
    let route = this.routes.get(pattern)
    if (!route) this.routes.set(pattern, (route = new RouteDurations(pattern, this.all)))
    return route
  }

  get(): Promise<{ name: string; help: string; type: string; aggregator: string; values: Value[] }> {
    const values: Value[] = []
    for (const { labels, counts, sum, count } of this.all) {
      let cumulative = 0
      for (let b = 0; b < BUCKETS.length; b++) {
        cumulative += counts[b]!
        values.push({ labels: { le: BUCKETS[b]!, ...labels }, value: cumulative, metricName: `${this.name}_bucket` })
      }
      values.push({ labels: { le: '+Inf', ...labels }, value: count, metricName: `${this.name}_bucket` })
      values.push({ labels: { ...labels }, value: sum, metricName: `${this.name}_sum` })
      values.push({ labels: { ...labels }, value: count, metricName: `${this.name}_count` })
    }
    return Promise.resolve({ name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values })
  }

  /** What the registry registers: prom-client takes any metric with a name and a `get()`. */
  asMetric(): Metric {
    return this as unknown as Metric
  }
}
