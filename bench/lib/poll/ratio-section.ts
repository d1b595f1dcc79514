/** The poll answer against bare node:http (autocannon, ABBA), written as its own BENCHMARKS.md section. */
import { createDb } from '@tempbox/db'
import { startApiStack } from '../api-stack.js'
import { writeBenchmarkSection } from '../benchmarks-md.js'
import { buildApps } from '../build-apps.js'
import { measurePollRatio, type RatioRow } from '../poll-ratio.js'
import { fillInbox } from './fill-inbox.js'
import { bench, BENCH_DIR, DOMAIN, NO_WRITE, RATIO_CONNECTIONS, RATIO_ROUNDS, RATIO_SECONDS, REPO_ROOT } from './settings.js'

/** One api process on SQLite, as a single node runs it, against bare node:http; written as its own section. */
export async function measureRatio(): Promise<void> {
  // Compiled, as production runs it.
  buildApps(REPO_ROOT)
  const stack = await startApiStack(REPO_ROOT, { withIngest: false, domain: DOMAIN, env: { API_PROCESSES: '1' }, dist: true })
  let rows: RatioRow[]
  try {
    const { db } = createDb({ path: stack.dbPath })
    const address = await fillInbox(stack.apiUrl, db).finally(() => db.destroy())
    rows = await measurePollRatio({
      benchDir: BENCH_DIR,
      apiUrl: stack.apiUrl,
      apiPid: stack.api.child.pid!,
      address,
      connections: RATIO_CONNECTIONS,
      seconds: RATIO_SECONDS,
      rounds: RATIO_ROUNDS,
      log: (line) => console.log(line),
    })
  } finally {
    await stack.stop()
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length
  const targets: Record<RatioRow['answer'], number> = { '200 cached listing': 0.6, '304 revalidation': 0.7 }
  const listing = rows.find((r) => r.answer === '200 cached listing')!
  const revalidation = rows.find((r) => r.answer === '304 revalidation')!
  // Half the CPU to spare: half the req/s it reaches at saturation (or half a core's worth of answers at the CPU each
  // one cost), each open inbox asking once per 10 s.
  const inboxes = (perSecond: number) => Math.floor((perSecond / 2) * 10 / 1000) * 1000
  const byCpu = (cpuUs: number) => inboxes(1e6 / cpuUs)
  const section = [
    bench.measured(),
    '',
    `autocannon (in the bench process), ${RATIO_CONNECTIONS} keep-alive connections, \`GET /api/email/{address}\` of one inbox holding 50 messages with \`Accept-Encoding: gzip, deflate, br\` (as browsers ask), against one compiled api process (\`dist/\`, \`APP_ENV=production\`, SQLite) with the listing cached; for the 304 with its ETag as \`If-None-Match\`. **Reference**: a bare \`node:http\` server (\`bench/lib/bare-http-server.mjs\`) sending the api's answers byte for byte (status line, every header in the api's order — the security headers too — and the body; only Date's time differs; checked before the first round) and doing nothing else, so the ratio is the cost of our work alone. ${RATIO_ROUNDS} rounds of ${RATIO_SECONDS} s each, alternating api, reference, reference, api (ABBA), so a change in the shared machine's load falls on both; the ratio is the api's mean req/s over the reference's. Bytes per answer count the status line, every header and the body.`,
    '',
    '| answer | api req/s (each slot) | bare node:http req/s (each slot) | ratio | target | api bytes/answer | bare bytes/answer | api CPU per answer |',
    '|---|---|---|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.answer} | ${r.api.map((v) => v.toFixed(0)).join(', ')} (mean ${mean(r.api).toFixed(0)}) | ${r.bare.map((v) => v.toFixed(0)).join(', ')} (mean ${mean(r.bare).toFixed(0)}) | **${r.ratio.toFixed(3)}** | ≥ ${targets[r.answer].toFixed(2)} ${r.ratio >= targets[r.answer] ? '(met)' : '(not met)'} | ${r.apiBytes} | ${r.bareBytes} | ${r.apiCpuUs.toFixed(0)} µs |`,
    ),
    '',
    `**Open inboxes one api process serves** at one poll per 10 s with half its CPU to spare (half the req/s above, × 10 s): about **${inboxes(mean(listing.api)).toLocaleString('en-US')}** if every poll got the whole listing (200), about **${inboxes(mean(revalidation.api)).toLocaleString('en-US')}** when polls revalidate an unchanged inbox (304, what a browser's \`If-None-Match\` gets between new mails). With the load generator sharing the 2 cores, these are floors: counted from the CPU each answer cost instead (half a core's worth of answers), about **${byCpu(listing.apiCpuUs).toLocaleString('en-US')}** (200) and **${byCpu(revalidation.apiCpuUs).toLocaleString('en-US')}** (304).`,
  ].join('\n')
  console.log(`\n${section}`)
  if (!NO_WRITE) writeBenchmarkSection(REPO_ROOT, '## Poll answer against bare node:http', section)
}
