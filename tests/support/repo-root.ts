import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The checkout the tests run in: the apps start from here, and relative paths in their environment resolve here. */
export const REPO_ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..')
