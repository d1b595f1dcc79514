import { execFile } from 'node:child_process'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'

const REPO_ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..')

const built = Symbol.for('tempbox.tests.appsBuilt')

/** Each vitest project runs its global setup: the build runs once per vitest process. */
export default function buildApps(): Promise<void> {
  const memo = globalThis as { [built]?: Promise<void> }
  return (memo[built] ??= build())
}

/**
 * vitest's global setup: `pnpm build` of the apps the tests start (and the packages they use), once before any file,
 * since stacks run the compiled apps. turbo replays it from its cache when nothing changed (as under `pnpm test`, whose
 * turbo task already built them).
 */
async function build(): Promise<void> {
  if (process.env.TEST_APPS_FROM_SOURCE === '1') return
  await promisify(execFile)(
    join(REPO_ROOT, 'node_modules/.bin/turbo'),
    ['run', 'build', '--filter=@tempbox/api', '--filter=@tempbox/mail-ingest', '--env-mode=loose', '--output-logs=errors-only'],
    { cwd: REPO_ROOT },
  ).catch((error: Error & { stdout?: string; stderr?: string }) => {
    throw new Error(`building the apps for the tests failed (TEST_APPS_FROM_SOURCE=1 runs their sources instead)\n${error.stdout}${error.stderr}`, { cause: error })
  })
}
