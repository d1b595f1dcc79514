/**
 * Runs every benchmark in this folder one after the other (each `*.ts` file next to this one).
 * `pnpm bench` runs them all; `pnpm bench smtp` only those whose file name contains "smtp".
 */
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { BENCH_DIR as dir, benchFiles } from './lib/bench-run.js'

const files = benchFiles(process.argv.slice(2))
let failed = false
for (const file of files) {
  console.log(`\n[bench] ${file}`)
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(dir, file)], { cwd: dir, stdio: 'inherit' })
  if (run.status !== 0) failed = true
}
process.exit(failed ? 1 : 0)
