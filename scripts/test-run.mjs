// `pnpm test`: the checks, then two streams side by side: the packages' own suites one package at a time, and tests/
// (whole stacks and Chromium) followed by the smallest package suites. Each stream alone leaves a core idle much of the
// time (servers starting, pages loading): side by side they keep both busy. `pnpm test:quick` (--quick): the checks
// and the suites that start no server. Ends with each task's wall time, read from turbo's run summaries, whether or
// not a phase failed.
import { spawn, spawnSync } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { recordedRun } from './mutation-record.mjs'

const quick = process.argv.includes('--quick')
// The inner loop's suites: packages whose tests start no server, database or browser (seconds each).
const UNIT_SUITES = ['@tempbox/web', '@tempbox/client', '@tempbox/config', '@tempbox/i18n', '@tempbox/ip', '@tempbox/mail-derive']
// Small suites that run after tests/ on its stream: the package suites' stream ended ~30 s after it (api's suite is long).
const AFTER_TESTS = ['@tempbox/client', '@tempbox/config', '@tempbox/i18n', '@tempbox/ip']
/** Phases run one after another; the streams of a phase run side by side, each one turbo run after another. */
const PHASES = quick
  ? [
      [[['checks', ['typecheck', 'lint']]]],
      [[['unit suites', ['test', ...UNIT_SUITES.map((name) => `--filter=${name}`), '--concurrency=2']]]],
    ]
  : [
      [[['checks', ['typecheck', 'lint']]]],
      [
        // One package at a time (each suite runs two files at a time): beside tests/ that already asks for more than the
        // 2 cores, and fewer suites at once means fewer tests near their time limits.
        [['package suites', ['test', '--filter=!@tempbox/tests', ...AFTER_TESTS.map((name) => `--filter=!${name}`), '--concurrency=1']]],
        [
          // Its one test task waits for the apps' builds, which may run two at a time.
          ['integration and end-to-end', ['test', '--filter=@tempbox/tests', '--concurrency=2']],
          ['small package suites', ['test', ...AFTER_TESTS.map((name) => `--filter=${name}`), '--concurrency=1']],
        ],
      ],
    ]
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const RUNS = join(ROOT, '.turbo', 'runs')
const env = { ...process.env, PATH: `${join(ROOT, 'node_modules', '.bin')}:${process.env.PATH}` }

/** The tasks of the newest turbo run summary written since `since` for `args`: [task, seconds, cache status]. */
function tasksOfRun(since, args) {
  const command = `turbo run ${args.filter((a) => !a.startsWith('--concurrency')).join(' ')}`
  let summary
  try {
    summary = readdirSync(RUNS)
      .map((f) => join(RUNS, f))
      .filter((f) => statSync(f).mtimeMs >= since)
      .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)
      .map((f) => JSON.parse(readFileSync(f, 'utf8')))
      // Two runs may write side by side: each is told by its command line (which turbo writes without --concurrency).
      .find((s) => s.execution?.command?.startsWith(command))
  } catch {
    return []
  }
  if (!summary) return []
  return summary.tasks
    .filter((t) => t.execution)
    .sort((a, b) => a.execution.startTime - b.execution.startTime)
    .map((t) => [t.taskId, (t.execution.endTime - t.execution.startTime) / 1000, t.cache?.status === 'HIT' ? 'cached' : t.execution.exitCode === 0 ? '' : 'FAILED'])
}

/** One turbo run, its output prefixed when it shares the terminal with another; resolves to its row and exit code. */
function runStream(name, args, prefixed) {
  const since = Date.now()
  const child = spawn('turbo', ['run', ...args, '--env-mode=loose', '--summarize', ...(prefixed ? ['--log-prefix=task'] : [])], { stdio: 'inherit', cwd: ROOT, env })
  return new Promise((resolve) => {
    child.on('error', (error) => console.error(`turbo did not start: ${error.message}`))
    child.on('close', (code) => resolve({ row: { name, seconds: (Date.now() - since) / 1000, tasks: tasksOfRun(since, args) }, ok: code === 0 }))
  })
}

/** A stream's turbo runs one after another, until one fails. */
async function runSequence(runs, prefixed) {
  const results = []
  for (const [name, args] of runs) {
    const result = await runStream(name, args, prefixed)
    results.push(result)
    if (!result.ok) break
  }
  return results
}

const rows = []
let failed = false
const started = Date.now()
for (const streams of PHASES) {
  const results = (await Promise.all(streams.map((runs) => runSequence(runs, streams.length > 1)))).flat()
  for (const { row, ok } of results) {
    rows.push(row)
    failed ||= !ok
  }
  if (failed) break
}

// Mutation testing, incremental from each package's committed stryker-incremental.json: only mutants whose code or
// covering tests changed run. A package whose recorded run still holds (mutation-record.mjs) is not run at all; one
// without that file (a full run, far past CI's time) is named and left out.
const MUTATED = ['packages/ip', 'packages/db', 'packages/mail-derive', 'apps/api', 'apps/mail-ingest']
if (!quick && !failed) {
  const since = Date.now()
  const tasks = []
  for (const dir of MUTATED) {
    if (!existsSync(join(ROOT, dir, 'stryker-incremental.json'))) {
      console.log(`mutation testing: ${dir} has no stryker-incremental.json yet (pnpm test:mutation writes it), left out`)
      continue
    }
    const record = recordedRun(join(ROOT, dir))
    if (record.holds) {
      const met = record.score >= record.break
      console.log(`mutation testing: ${dir} unchanged since its recorded run: ${record.score.toFixed(2)} % of ${record.mutants} mutants killed (break ${record.break})${met ? '' : ', BELOW THE BREAK'}`)
      tasks.push([`${dir}#stryker (recorded, unchanged)`, 0, met ? '' : 'FAILED'])
      failed ||= !met
      continue
    }
    console.log(`mutation testing: ${dir}: ${record.reason}; running Stryker incrementally`)
    const begun = Date.now()
    // Read from the tracked file, written to an ignored copy: Stryker rewrites its file even when nothing changed, and
    // `pnpm test` must not leave the tree modified (`pnpm test:mutation` updates the tracked one).
    mkdirSync(join(ROOT, dir, 'reports'), { recursive: true })
    copyFileSync(join(ROOT, dir, 'stryker-incremental.json'), join(ROOT, dir, 'reports', 'stryker-incremental.json'))
    const run = spawnSync('stryker', ['run', '--incremental', '--incrementalFile', 'reports/stryker-incremental.json', '--concurrency', '2'], { stdio: 'inherit', cwd: join(ROOT, dir), env })
    tasks.push([`${dir}#stryker`, (Date.now() - begun) / 1000, run.status === 0 ? '' : 'FAILED'])
    failed ||= run.status !== 0
  }
  rows.push({ name: 'mutation testing (incremental)', seconds: (Date.now() - since) / 1000, tasks })
}

const pad = (s, n) => String(s).padEnd(n)
console.log(`\nTimes (wall, s) of ${quick ? 'pnpm test:quick' : 'pnpm test'}:`)
for (const { name, seconds, tasks } of rows) {
  console.log(`  ${pad(name, 44)} ${seconds.toFixed(0).padStart(5)}`)
  for (const [task, s, note] of tasks) {
    console.log(`    ${pad(task, 42)} ${s.toFixed(0).padStart(5)} ${note}`)
  }
}
console.log(`  ${pad('total', 44)} ${((Date.now() - started) / 1000).toFixed(0).padStart(5)}${failed ? '  (stopped at a failure)' : ''}`)
process.exit(failed ? 1 : 0)
