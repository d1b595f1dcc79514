import { defineConfig } from 'vitest/config'

// Stryker runs tests in worker threads, where create-db's umask test cannot run; the source split and rebuild are
// covered by these files.
export default defineConfig({ test: { include: ['test/message-source.test.ts', 'test/message-source-split.test.ts', 'test/message-content.test.ts'] } })
