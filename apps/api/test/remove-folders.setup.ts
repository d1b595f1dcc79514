import { afterAll } from 'vitest'
import { removeFolders } from './test-folders.js'

// After each file, its closed apps' database folders: the last app a worker builds has no later build to remove them.
afterAll(() => removeFolders(false))
