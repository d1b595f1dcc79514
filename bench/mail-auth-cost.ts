/**
 * What the sender check (issue 16) costs per message on its worker thread, A/B in the same rounds and in this process,
 * so other work on the shared cores weighs on both sides alike:
 *   - the check of the message as received against the check of what ingest now hands it (authSourceOf: the header
 *     block alone when nothing in it signs the body), for `pnpm bench smtp`'s unsigned 2 KB and 100 KB messages and a
 *     DKIM-signed one (which is checked whole either way);
 *   - storing verdicts (a batch of 16 per transaction, as they come under load) with synchronous=FULL against NORMAL,
 *     which the auth worker's connection now uses: CPU, and how long each batch holds the write lock (wall).
 * Writes `## Sender check: CPU per message on its thread` in BENCHMARKS.md.
 *
 *   pnpm bench mail-auth-cost   BENCH_ROUNDS=5  BENCH_MESSAGES=300  BENCH_NO_WRITE=1
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createDb, migrateToLatest, openStorage, toStoredSource } from '@tempbox/db'
import { checkMessage, type AuthVerdict } from '../apps/mail-ingest/src/mail-auth/check.js'
import { fixtureResolver } from '../apps/mail-ingest/src/mail-auth/dns.js'
import { authSourceOf } from '../apps/mail-ingest/src/mail-auth/job.js'
import { createVerdictWriter } from '../apps/mail-ingest/src/mail-auth/verdict-writer.js'
import { parseMessage } from '../apps/mail-ingest/src/parse-message.js'
import { dmarcReject, signingDomain, signMail } from '../tests/support/dkim.js'
import { BenchRun } from './lib/bench-run.js'
import { writeBenchmarkSection } from './lib/benchmarks-md.js'
import { buildMessage } from './lib/smtp-client.js'
import { spread } from './lib/stats.js'

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const bench = new BenchRun('mail-auth-cost')
const ROUNDS = Math.max(1, Math.round(bench.number('BENCH_ROUNDS', 5)))
const MESSAGES = Math.max(20, Math.round(bench.number('BENCH_MESSAGES', 300)))

const signer = signingDomain('sender.test')
// As `pnpm bench smtp` answers DNS for its sender: SPF and DMARC records, so every check takes both paths.
const resolver = fixtureResolver({
  ...signer.zone,
  ...dmarcReject('sender.test'),
  'sender.test': { TXT: [['v=spf1 ip4:127.0.0.1 -all']] },
})
const envelope = { ip: '127.0.0.1', helo: 'localhost', mailFrom: 'load@sender.test' }
const check = (raw: Buffer) => checkMessage(raw, envelope, { resolver, mta: 'bench.tempbox.local' })

const unsigned2k = buildMessage(2048, 'load@sender.test', 'bench1@bench.tempbox.local', 'auth-2k')
const kinds: Array<{ name: string; raw: Buffer }> = [
  { name: '2 KB unsigned (as `pnpm bench smtp` sends)', raw: unsigned2k },
  { name: '100 KB unsigned', raw: buildMessage(100 * 1024, 'load@sender.test', 'bench1@bench.tempbox.local', 'auth-100k') },
  { name: '2 KB DKIM-signed', raw: Buffer.from(await signMail(unsigned2k.toString('latin1'), signer), 'latin1') },
]
const prepared = await Promise.all(kinds.map(async ({ name, raw }) => {
  const parsed = await parseMessage(raw)
  const handed = authSourceOf({ source: toStoredSource(raw, parsed.text, parsed.plainBodyStart), parsed }).bytes
  const [whole, part] = [await check(raw), await check(handed)]
  if (JSON.stringify(whole) !== JSON.stringify(part)) throw new Error(`${name}: the verdicts differ`)
  return { name, raw, handed, status: whole.status }
}))

const cpuMsPer = async (n: number, run: () => Promise<unknown>): Promise<number> => {
  const start = process.cpuUsage()
  for (let i = 0; i < n; i++) await run()
  const used = process.cpuUsage(start)
  return (used.user + used.system) / 1000 / n
}

const dir = mkdtempSync(join(tmpdir(), 'tempbox-bench-auth-'))
const { db, sqlite } = createDb({ path: join(dir, 'tempbox.sqlite') })
await migrateToLatest(db)
const BATCH = 16
const BATCHES = Math.max(10, Math.round(MESSAGES / BATCH))
const ids = Array.from({ length: BATCH * BATCHES }, (_, i) => i + 1)
const insertContent = sqlite.prepare("INSERT INTO message_content (id, recipients, headers, text, html, raw) VALUES (?, '[]', '[]', NULL, NULL, x'')")
const insertChecking = sqlite.prepare("INSERT INTO message_auth (message_content_id, status) VALUES (?, 'checking')")
sqlite.transaction(() => {
  for (const id of ids) insertContent.run(id)
  for (const id of ids) insertChecking.run(id)
})()
const verdict: AuthVerdict = await check(prepared[0]!.handed)
// The storage as the auth worker opens it (durable: false is synchronous=NORMAL), and as every other writer does.
const verdictStorages = { FULL: openStorage({ path: join(dir, 'tempbox.sqlite') }), NORMAL: openStorage({ path: join(dir, 'tempbox.sqlite'), durable: false }) }
const writers = {
  FULL: createVerdictWriter((batch, at) => verdictStorages.FULL.writeVerdicts(batch, at)),
  NORMAL: createVerdictWriter((batch, at) => verdictStorages.NORMAL.writeVerdicts(batch, at)),
}
/** CPU per verdict, and wall time per batch (the write lock held), storing every message's verdict in batches. */
const storeVerdicts = async (synchronous: 'FULL' | 'NORMAL') => {
  const writer = writers[synchronous]
  const start = process.cpuUsage()
  const began = performance.now()
  for (let b = 0; b < BATCHES; b++) {
    for (const id of ids.slice(b * BATCH, (b + 1) * BATCH)) writer.write(id, verdict)
    await writer.flush()
  }
  const used = process.cpuUsage(start)
  return { cpu: (used.user + used.system) / 1000 / ids.length, wallPerBatch: (performance.now() - began) / BATCHES }
}

// Untimed: the JIT warms up on every path before anything is measured.
for (const p of prepared) {
  await cpuMsPer(Math.min(MESSAGES, 100), () => check(p.raw))
  await cpuMsPer(Math.min(MESSAGES, 100), () => check(p.handed))
}

const results = new Map<string, number[]>()
const add = (key: string, value: number) => results.set(key, [...(results.get(key) ?? []), value])
for (let round = 0; round < ROUNDS; round++) {
  // Which side goes first alternates, so neither always runs on the warmer (or the quieter) moment.
  const sides = (['as received', 'as handed now'] as const).slice()
  if (round % 2 === 1) sides.reverse()
  for (const p of prepared) {
    for (const side of sides) add(`${p.name}\t${side}`, await cpuMsPer(MESSAGES, () => check(side === 'as received' ? p.raw : p.handed)))
  }
  for (const mode of (round % 2 === 1 ? ['NORMAL', 'FULL'] : ['FULL', 'NORMAL']) as Array<'FULL' | 'NORMAL'>) {
    const { cpu, wallPerBatch } = await storeVerdicts(mode)
    add(`verdict cpu\t${mode}`, cpu)
    add(`verdict wall\t${mode}`, wallPerBatch)
  }
}
for (const storage of Object.values(verdictStorages)) await storage.close()
await db.destroy()
rmSync(dir, { recursive: true, force: true })

const of = (key: string) => spread(results.get(key)!, 3)
const section = [
  bench.measured(),
  '',
  `CPU (user + system) of mail-ingest's \`checkMessage\` per message, ${MESSAGES} checks per cell and round, the two columns interleaved (which goes first alternates by round) after an untimed warm-up; median of ${ROUNDS} rounds with the range in brackets. DNS answers from a fixture zone (SPF and DMARC records for the sender), so this is the check's own CPU. The verdicts of both columns are the same (the run stops otherwise).`,
  '',
  '| message | verdict | as received, ms | as handed to the check now, ms | bytes handed |',
  '|---|---|---:|---:|---:|',
  ...prepared.map((p) => `| ${p.name} | ${p.status} | ${of(`${p.name}\tas received`)} | ${of(`${p.name}\tas handed now`)} | ${p.handed.length} of ${p.raw.length} |`),
  '',
  `Storing verdicts (${BATCH} per transaction, ${BATCHES} transactions per round, in a SQLite file on this disk): synchronous=FULL ${of('verdict cpu\tFULL')} ms CPU per verdict and ${spread(results.get('verdict wall\tFULL')!, 2)} ms per transaction (the write lock held); NORMAL, as the auth worker now commits, ${of('verdict cpu\tNORMAL')} ms and ${spread(results.get('verdict wall\tNORMAL')!, 2)} ms.`,
].join('\n')
console.log(section)
if (!process.env.BENCH_NO_WRITE) writeBenchmarkSection(REPO_ROOT, '## Sender check: CPU per message on its thread', section)
