// Whether a package's committed stryker-incremental.json still describes its code: Stryker's incremental mode reuses a
// mutant's result exactly when its file and its covering tests are unchanged, so when every recorded file, the mutate
// list and the mutation test config are unchanged, the recorded results are what a run would report, without its run.
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

const VALID = new Set(['Killed', 'Timeout', 'Survived', 'NoCoverage'])
const DETECTED = new Set(['Killed', 'Timeout'])

/** Seconds since the epoch of the last commit touching `file`, or undefined outside git. */
function committedAt(dir, file) {
  const run = spawnSync('git', ['log', '-1', '--format=%ct', '--', file], { cwd: dir, encoding: 'utf8' })
  return run.status === 0 && run.stdout.trim() ? Number(run.stdout.trim()) : undefined
}

function changedInTree(dir, files) {
  const run = spawnSync('git', ['status', '--porcelain', '--', ...files], { cwd: dir, encoding: 'utf8' })
  return run.status !== 0 || run.stdout.trim() !== ''
}

/**
 * `{ holds, reason, score, mutants, break }` for the package in `dir`: `holds` when the recorded run can stand for a new
 * one; `reason` says what changed otherwise.
 */
export function recordedRun(dir) {
  const record = JSON.parse(readFileSync(join(dir, 'stryker-incremental.json'), 'utf8'))
  const config = JSON.parse(readFileSync(join(dir, 'stryker.config.json'), 'utf8'))
  const mutants = Object.values(record.files).flatMap((file) => file.mutants).filter((m) => VALID.has(m.status))
  const score = mutants.length ? (100 * mutants.filter((m) => DETECTED.has(m.status)).length) / mutants.length : 0
  const result = { holds: false, score, mutants: mutants.length, break: config.thresholds?.break ?? 0 }
  if (JSON.stringify(config.mutate) !== JSON.stringify(record.config?.mutate)) return { ...result, reason: 'its mutate list changed' }
  for (const [path, file] of [...Object.entries(record.files), ...Object.entries(record.testFiles ?? {})]) {
    const current = existsSync(join(dir, path)) ? readFileSync(join(dir, path), 'utf8') : undefined
    if (current !== file.source) return { ...result, reason: `${path} changed` }
  }
  // Which tests cover the mutants is set by the mutation test config, not recorded in the file: it must be older.
  const testConfig = config.vitest?.configFile ?? 'vitest.config.ts'
  const recordedAt = committedAt(dir, 'stryker-incremental.json')
  const configAt = committedAt(dir, testConfig)
  if (recordedAt === undefined || configAt === undefined || configAt > recordedAt || changedInTree(dir, [testConfig, 'stryker-incremental.json'])) {
    return { ...result, reason: `${testConfig} may have changed since the recorded run` }
  }
  return { ...result, holds: true, reason: 'unchanged' }
}
