/**
 * Runs every benchmark in this folder one after the other (each `*.ts` file next to this one).
 * `pnpm bench` runs them all; `pnpm bench smtp` only those whose file name contains "smtp".
 */
import { spawnSync } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const dir = dirname(fileURLToPath(import.meta.url))
const filters = process.argv.slice(2)
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.ts') && f !== 'run-all.ts' && !f.endsWith('.d.ts'))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort()
let failed = false
for (const file of files) {
  console.log(`\n[bench] ${file}`)
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(dir, file)], { cwd: dir, stdio: 'inherit' })
  if (run.status !== 0) failed = true
}
process.exit(failed ? 1 : 0)
