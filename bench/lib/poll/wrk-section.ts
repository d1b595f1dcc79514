/** The `## Inbox polling` section (or its PostgreSQL variant) from the wrk rows. */
import { writeBenchmarkSection } from '../benchmarks-md.js'
import { BASELINE_ROOT, bench, CONNECTIONS, NO_WRITE, ON_POSTGRES, RATE, REPEATS, REPO_ROOT, SECONDS } from './settings.js'
import type { Run } from './wrk-runs.js'

export function writeWrkSection(runs: Run[]): void {
  const serverName = (r: Run) => r.server
  const paced = runs.filter((r) => r.load !== 'saturation' && r.api)
  const met = (r: Run) => r.perSecond >= RATE * 0.98 && r.p99 <= 50 && r.failures === 0
  const best = Math.max(...runs.filter((r) => r.load === 'saturation' && r.api).map((r) => r.perSecond))
  if (!NO_WRITE) {
    // A run with PostgreSQL has a section of its own: the SQLite-only section keeps its figures (a quieter machine, maybe).
    writeBenchmarkSection(
      REPO_ROOT,
      ON_POSTGRES ? '## Inbox polling on PostgreSQL, with SQLite in the same run' : '## Inbox polling',
      [
        `${bench.measured()} The wrk part needs \`wrk\`.`,
        '',
        `wrk (one thread), ${CONNECTIONS} concurrent keep-alive connections for ${SECONDS} s per measurement, all polling \`GET /api/email/{address}?refresh=true\` of one inbox holding 50 messages (sign-up mails with text and HTML parts), against the real api (\`APP_ENV=production\`, \`API_PROCESSES\` as in the first column; the polling route logs at \`warn\`, so no access-log line per poll). **Saturation**: each connection asks again the moment it has its answer, which gives the most GET/s the server can give; its latency is only queueing (with ${CONNECTIONS} requests always in flight, mean latency = ${CONNECTIONS} ÷ throughput, Little's law), not what a poller waits. **Paced**: the same connections send ${RATE.toLocaleString('en-US')} GET/s in all, evenly spread (\`bench/wrk/paced.lua\`) — the latency a poller sees at the target load; run ${REPEATS} times, the table shows the median of each column and, after p99, the range of the ${REPEATS} p99s (tail latency on shared cores swings from run to run). **Reference**: a bare \`node:http\` server (\`bench/lib/bare-http-server.mjs\`) answering every request with the api's own response bytes and doing nothing else — the ceiling of Node's HTTP stack here, under the same load generator. "wrk timeouts" counts requests wrk gave up on after 5 s; at saturation it is as high for the bare server, so it comes from opening ${CONNECTIONS} loopback connections at once, not from the api. CPU is user + system time of the server's whole process tree (primary and workers). Target: ≥ 10,000 GET/s with p99 ≤ 50 ms.${ON_POSTGRES ? ` **PostgreSQL** rows: api nodes on one throwaway PostgreSQL server on the same cores (\`@tempbox/db/testing\`, \`synchronous_commit=on\`), each node one api process with its own listening connection (not cluster workers), each polled by a wrk of its own with its share of the connections and of the rate (what a balancer would send it); GET/s add up, each latency column is the worse node's, and CPU per GET counts the api nodes and the PostgreSQL server. Measured in turn with the SQLite rows (SQLite 1, PostgreSQL 1, SQLite 2, PostgreSQL 2, SQLite 3), so the machine's load falls on both.${BASELINE_ROOT ? ' **PostgreSQL, baseline** rows: the same nodes running the api of another checkout (`BENCH_BASELINE_ROOT`), on a database of its own on the same server, measured in turn with these.' : ''}` : ''} The last column is the 1-min load average when the row ended: a row measured at load above 4 (more runnable work than twice the cores) is marked **load > 4**; its throughput says what the api got of a crowded machine, not what it can do.`,
        '',
        '| server | encoding | load | GET/s | p50 | p90 | p99 | wrk timeouts/errors | bytes/response | CPU per GET | CPU (100 % = one core) | RSS | load avg |',
        '|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
        ...runs.map(
          (r) =>
            `| ${serverName(r)} | ${r.encoding} | ${r.load} | ${r.perSecond.toFixed(0)} | ${r.p50.toFixed(1)} ms | ${r.p90.toFixed(1)} ms | ${r.p99.toFixed(1)} ms${r.repeats > 1 ? ` (${r.p99Range.map((v) => v.toFixed(1)).join('–')})` : ''} | ${r.failures} | ${(r.bytesPerResponse / 1024).toFixed(1)} KB | ${r.cpuPerRequestUs.toFixed(0)} µs | ${r.apiCpuPercent.toFixed(0)} % | ${r.apiRssMb.toFixed(0)} MB | ${r.loadAverage.toFixed(1)}${r.loadAverage > 4 ? ' **load > 4**' : ''} |`,
        ),
        '',
        `Against the target (paced rows) in this run: ${paced.filter(met).map((r) => `**met** by the ${serverName(r)}, ${r.encoding}`).join('; ') || '**not met**'}${paced.filter((r) => !met(r)).length ? `; not met by the ${paced.filter((r) => !met(r)).map((r) => `${serverName(r)}, ${r.encoding}`).join('; ')}` : ''}. Most GET/s from the api at saturation: ${Math.round(best).toLocaleString('en-US')}.`,
      ].join('\n'),
    )
  }
}
