/**
 * Resident memory of the api and mail-ingest under the load issue 29 names: both compiled (dist/, as `pnpm start` runs
 * them), on one SQLite file; BENCH_MESSAGES sign-up-shaped 2 KB mails over SMTP (BENCH_SMTP_CONNECTIONS connections) to
 * BENCH_INBOXES inboxes, then autocannon polls their listings for BENCH_POLL_SECONDS. RSS, peak (VmHWM), threads and
 * anonymous/file pages of each process are sampled every 250 ms. Targets: api ≤ 150 MB, ingest ≤ 200 MB.
 * BENCH_NO_BUILD=1 skips building dist/; BENCH_NO_WRITE=1 leaves BENCHMARKS.md alone.
 */
import autocannon from 'autocannon'
import { startApiStack, generateAddress } from './lib/api-stack.js'
import { writeBenchmarkSection } from './lib/benchmarks-md.js'
import { buildApps } from './lib/build-apps.js'
import { BenchRun } from './lib/bench-run.js'
import { metricsUrl, sampleMemory, v8HeapMb, type MemorySample } from './lib/memory/proc-memory.js'
import { buildHtmlMessage, SmtpClient } from './lib/smtp-client.js'
import { REPO_ROOT } from './lib/smtp/settings.js'

const bench = new BenchRun('memory')
const MESSAGES = bench.number('BENCH_MESSAGES', 20_000)
const INBOXES = bench.number('BENCH_INBOXES', 4)
const SMTP_CONNECTIONS = bench.number('BENCH_SMTP_CONNECTIONS', 16)
const POLL_SECONDS = bench.number('BENCH_POLL_SECONDS', 20)
const POLL_CONNECTIONS = bench.number('BENCH_POLL_CONNECTIONS', 100)
const NO_BUILD = bench.flag('BENCH_NO_BUILD')
const NO_WRITE = bench.flag('BENCH_NO_WRITE')
const TARGET_MB = { api: 150, ingest: 200 } as const
const DOMAIN = 'bench.tempbox.test'

if (!NO_BUILD) buildApps(REPO_ROOT)

const stack = await startApiStack(REPO_ROOT, { withIngest: true, domain: DOMAIN, dist: true })
type Name = keyof typeof TARGET_MB
const procs: Record<Name, { pid: number; metrics: string | null }> = {
  api: { pid: stack.api.child.pid!, metrics: null },
  ingest: { pid: stack.ingest!.child.pid!, metrics: null },
}
const samples: Record<Name, Array<MemorySample & { phase: string }>> = { api: [], ingest: [] }
let phase = 'idle'
const sampler = setInterval(() => {
  for (const name of ['api', 'ingest'] as const) {
    const s = sampleMemory(procs[name].pid)
    if (s) samples[name].push({ ...s, phase })
  }
}, 250)

try {
  // Both print their metrics port once listening; the api's line can come a moment after its ready line.
  for (let i = 0; i < 40 && !(procs.api.metrics && procs.ingest.metrics); i++) {
    procs.api.metrics = metricsUrl(stack.api.output())
    procs.ingest.metrics = metricsUrl(stack.ingest!.output())
    await new Promise((r) => setTimeout(r, 250))
  }
  const idle = { api: sampleMemory(procs.api.pid)!, ingest: sampleMemory(procs.ingest.pid)! }
  const addresses = await Promise.all(Array.from({ length: INBOXES }, () => generateAddress(stack.apiUrl)))

  phase = 'send'
  const sendStart = performance.now()
  let next = 0
  let refused = 0
  await Promise.all(
    Array.from({ length: SMTP_CONNECTIONS }, async () => {
      const client = await SmtpClient.open(stack.smtpPort)
      for (let i = next++; i < MESSAGES; i = next++) {
        const to = addresses[i % INBOXES]!
        const reply = await client.send('sender@example.org', to, buildHtmlMessage(2048, 'sender@example.org', to, `Your code ${i}`))
        if (!reply.startsWith('250')) refused++
      }
      await client.quit()
    }),
  )
  const sendSeconds = (performance.now() - sendStart) / 1000
  if (refused) throw new Error(`${refused} of ${MESSAGES} messages refused`)
  const afterSend = { api: sampleMemory(procs.api.pid)!, ingest: sampleMemory(procs.ingest.pid)! }
  const heapAfterSend = { api: await v8HeapMb(procs.api.metrics!), ingest: await v8HeapMb(procs.ingest.metrics!) }

  phase = 'poll'
  const poll = await autocannon({
    url: stack.apiUrl,
    connections: POLL_CONNECTIONS,
    duration: POLL_SECONDS,
    headers: { 'accept-encoding': 'gzip, deflate, br' },
    requests: addresses.map((a) => ({ path: `/api/email/${a}` })),
  })
  if (poll.non2xx || poll.errors || poll.requests.total === 0) throw new Error(`poll: ${poll.non2xx} non-2xx, ${poll.errors} errors, ${poll.requests.total} answers`)
  const end = { api: sampleMemory(procs.api.pid)!, ingest: sampleMemory(procs.ingest.pid)! }
  const heapEnd = { api: await v8HeapMb(procs.api.metrics!), ingest: await v8HeapMb(procs.ingest.metrics!) }
  clearInterval(sampler)

  const mb = (n: number) => n.toFixed(0)
  const heap = (h: { usedMb: number; totalMb: number } | null) => (h ? `${mb(h.usedMb)} / ${mb(h.totalMb)}` : 'n/a')
  const rows = (['api', 'ingest'] as const).map((name) => {
    const peak = Math.max(end[name].peakMb, ...samples[name].map((s) => s.peakMb))
    const threads = Math.max(...samples[name].map((s) => s.threads))
    const met = peak <= TARGET_MB[name] && end[name].rssMb <= TARGET_MB[name]
    const newSpace = heapEnd[name] ? mb(heapEnd[name].newSpaceMb) : 'n/a'
    const line = `| ${name} | ${threads} | ${mb(idle[name].rssMb)} | ${mb(afterSend[name].rssMb)} | ${mb(end[name].rssMb)} | **${mb(peak)}** | ${mb(end[name].anonMb)} / ${mb(end[name].fileMb)} | ${heap(heapAfterSend[name])} → ${heap(heapEnd[name])} | ${newSpace} | ≤ ${TARGET_MB[name]} ${met ? 'met' : '**missed**'} |`
    console.log(`[memory] ${name}: threads ${threads}, idle ${mb(idle[name].rssMb)} MB, after send ${mb(afterSend[name].rssMb)} MB, end ${mb(end[name].rssMb)} MB, peak ${mb(peak)} MB (anon ${mb(end[name].anonMb)}, file ${mb(end[name].fileMb)}), main-thread V8 heap used/total after send ${heap(heapAfterSend[name])}, end ${heap(heapEnd[name])} (new space ${newSpace})`)
    return line
  })
  const load = `${MESSAGES.toLocaleString('en-US')} mails (2 KB, text + HTML) over ${SMTP_CONNECTIONS} SMTP connections to ${INBOXES} inboxes in ${sendSeconds.toFixed(1)} s (${(MESSAGES / sendSeconds).toFixed(0)} msg/s), then ${POLL_SECONDS} s of listing polls (autocannon, ${POLL_CONNECTIONS} connections, br): ${poll.requests.average.toFixed(0)} req/s`
  console.log(`[memory] ${load}`)
  if (!NO_WRITE) {
    writeBenchmarkSection(
      REPO_ROOT,
      '## Memory: api and mail-ingest RSS after 20,000 mails and polling (issue 29)',
      [
        `${bench.measured()} Both compiled (\`dist/\`, as \`pnpm start\`), one SQLite file, default settings. Load: ${load}. RSS sampled every 250 ms from /proc; peak is VmHWM. MB:`,
        '',
        '| process | threads | idle | after mails | after polls | peak | anon / file at end | main V8 heap used / total, after mails → end | of it new space at end | target |',
        '|---|---:|---:|---:|---:|---:|---:|---:|---:|---|',
        ...rows,
        '',
        'New space is the main thread\'s V8 young generation: its two semi-spaces grow to their maximum once allocation runs high, at start while modules load and under polls, and stay committed: 4 MB each in both apps (`--max-semi-space-size=4` in their start scripts, which this bench follows; in mail-ingest V8 sizes every thread by it). mail-ingest also starts with `MALLOC_ARENA_MAX=2`: two glibc malloc arenas for its threads, not one per busy thread. The api\'s peak follows the poll rate, which follows the machine\'s load: its old generation grows with it.',
      ].join('\n'),
    )
  }
} finally {
  clearInterval(sampler)
  await stack.stop()
}
