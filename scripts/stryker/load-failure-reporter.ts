import type { Test } from '@vitest/runner'
import type { Reporter, Vitest } from 'vitest/node'

/**
 * Stryker's vitest runner (9.6.1) reads only test results, so a mutant that makes a test file throw while it loads
 * (no tests collected) counted as a survivor. This reporter, loaded by each `vitest.mutation.config.ts`, gives such a
 * file one failed test carrying the load error, which Stryker counts as a kill.
 */
export default class LoadFailureReporter implements Reporter {
  private vitest: Vitest | undefined

  onInit(vitest: Vitest): void {
    this.vitest = vitest
  }

  onTestRunEnd(): void {
    for (const file of this.vitest?.state.getFiles() ?? []) {
      if (file.result?.state !== 'fail' || file.tasks.length > 0) continue
      const failed: Test = {
        type: 'test',
        id: `${file.id}_load`,
        name: 'test file loads',
        fullName: `${file.name} test file loads`,
        fullTestName: 'test file loads',
        mode: 'run',
        file,
        suite: file,
        meta: {},
        annotations: [],
        artifacts: [],
        timeout: 0,
        context: undefined as never,
        result: { state: 'fail', errors: file.result.errors ?? [{ message: 'test file failed to load' }] },
      }
      file.tasks.push(failed)
    }
  }
}
