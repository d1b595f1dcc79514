/** The part of autocannon 8's API the benchmarks use (the package ships no types). */
declare module 'autocannon' {
  namespace autocannon {
    interface Request {
      path?: string
      method?: string
      headers?: Record<string, string>
      body?: string
      setupRequest?: (req: Request) => Request
    }
    interface Histogram {
      average: number
      p50: number
      p99: number
      max: number
      total: number
    }
    interface Options {
      url: string
      connections?: number
      duration?: number
      overallRate?: number
      headers?: Record<string, string>
      requests?: Request[]
    }
    interface Result {
      requests: Histogram
      latency: Histogram
      throughput: Histogram
      non2xx: number
      errors: number
      timeouts: number
      statusCodeStats?: Record<string, { count: number }>
    }
  }
  function autocannon(options: autocannon.Options): Promise<autocannon.Result>
  export default autocannon
}
