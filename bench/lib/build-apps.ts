import { spawnSync } from 'node:child_process'

/** Builds the api and mail-ingest (and what they import) to dist/, as `pnpm start` runs them: a turbo cache hit when nothing changed. */
export function buildApps(repoRoot: string): void {
  const build = spawnSync('pnpm', ['exec', 'turbo', 'run', 'build', '--filter=@tempbox/api...', '--filter=@tempbox/mail-ingest...', '--output-logs=errors-only'], { cwd: repoRoot, stdio: 'inherit' })
  if (build.status !== 0) throw new Error('building dist/ failed')
}
