/**
 * vitest's own blob reporter, told the run ended only once the run's report is written: by then the run-level
 * facts (the cleanup's outcome included) are on the modules' meta, which the blob serializes when told.
 */
import { ReportersMap, type Reporter, type TestModule, type TestRunEndReason, type Vitest } from 'vitest/node'
import RunReporter, { RUN_REPORTER } from './run-reporter.ts'

type Blob = Reporter & Required<Pick<Reporter, 'onInit' | 'onTestRunEnd'>>

export default class DeferredBlob implements Reporter {
  readonly #blob: Blob
  #run: RunReporter | undefined

  constructor(options: Record<string, unknown> = {}) {
    this.#blob = new ReportersMap.blob(options) as unknown as Blob
  }

  onInit(vitest: Vitest): void {
    // `reporters` is internal to vitest's types, public on the object (its own reporters read it too).
    const reporters = (vitest as unknown as { reporters: unknown[] }).reporters
    this.#run = reporters.find((r) => (r as Record<symbol, unknown>)[RUN_REPORTER] === true) as RunReporter | undefined
    this.#blob.onInit(vitest)
  }

  async onTestRunEnd(modules: ReadonlyArray<TestModule>, errors: Parameters<Blob['onTestRunEnd']>[1], reason: TestRunEndReason): Promise<void> {
    await this.#run?.finished
    await this.#blob.onTestRunEnd(modules, errors, reason)
  }
}
