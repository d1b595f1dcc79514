import { isAbsolute, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The repository root, so every app resolves the default file to the same place whatever its cwd. */
const REPO_ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..')

/** Default SQLite file, shared by api and mail-ingest. */
export const DEFAULT_DATABASE_PATH = 'data/tempbox.sqlite'

/** Resolves DATABASE_PATH (relative paths are taken from the repository root). */
export function resolveDatabasePath(value: string | undefined): string {
  const path = value && value.trim() !== '' ? value.trim() : DEFAULT_DATABASE_PATH
  if (path === ':memory:' || isAbsolute(path)) return path
  return resolve(REPO_ROOT, path)
}
