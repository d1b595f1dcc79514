// `pnpm test` (and `pnpm test:quick` with --quick): the checks, then the packages' own suites two at a time (most of
// their time is spent waiting on servers, so two share our 2 cores well), then tests/ alone (it starts whole stacks
// and Chromium). Ends with each task's wall time, read from turbo's run summary, whether or not a phase failed.
import { spawnSync } from 'node:child_process'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const quick = process.argv.includes('--quick')
const PHASES = [
  ['checks', ['typecheck', 'lint']],
  ['package suites', ['test', '--filter=!@tempbox/tests', '--concurrency=2']],
  ...(quick ? [] : [['integration and end-to-end', ['test', '--filter=@tempbox/tests', '--concurrency=1']]]),
]
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const RUNS = join(ROOT, '.turbo', 'runs')
const env = { ...process.env, PATH: `${join(ROOT, 'node_modules', '.bin')}:${process.env.PATH}` }

/** The tasks of the turbo run summary written after `since`: [task, seconds, cache status]. */
function tasksOfRun(since) {
  let newest
  try {
    newest = readdirSync(RUNS).map((f) => join(RUNS, f)).filter((f) => statSync(f).mtimeMs >= since).sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0]
  } catch {
    return []
  }
  if (!newest) return []
  const summary = JSON.parse(readFileSync(newest, 'utf8'))
  return summary.tasks
    .filter((t) => t.execution)
    .sort((a, b) => a.execution.startTime - b.execution.startTime)
    .map((t) => [t.taskId, (t.execution.endTime - t.execution.startTime) / 1000, t.cache?.status === 'HIT' ? 'cached' : t.execution.exitCode === 0 ? '' : 'FAILED'])
}

const rows = []
let failed = false
const started = Date.now()
for (const [name, args] of PHASES) {
  const since = Date.now()
  const run = spawnSync('turbo', ['run', ...args, '--env-mode=loose', '--summarize'], { stdio: 'inherit', cwd: ROOT, env })
  if (run.error) console.error(`turbo did not start: ${run.error.message}`)
  rows.push({ name, seconds: (Date.now() - since) / 1000, tasks: tasksOfRun(since) })
  if (run.status !== 0) {
    failed = true
    break
  }
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
