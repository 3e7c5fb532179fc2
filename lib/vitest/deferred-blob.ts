/**
 * vitest's own blob reporter, told the run ended only once the run's report is written: by then the run-level
 * facts (the cleanup's outcome included) are on the modules' meta, which the blob serializes when told. The
 * plugin (plugin.ts) makes it in place of the `blob` reporter asked for, with the run's reporter to wait for.
 */
import { ReportersMap, type Reporter, type TestModule, type TestRunEndReason, type Vitest } from 'vitest/node'

type Blob = Reporter & Required<Pick<Reporter, 'onInit' | 'onTestRunEnd'>>

export default class DeferredBlob implements Reporter {
  readonly #blob: Blob
  /** The run's reporter: `finished` settles when its report is written. */
  readonly #run: { finished: Promise<void> }

  constructor(run: { finished: Promise<void> }, options: { outputFile?: string } = {}) {
    this.#run = run
    this.#blob = new ReportersMap.blob(options)
  }

  onInit(vitest: Vitest): void {
    this.#blob.onInit(vitest)
  }

  async onTestRunEnd(
    modules: ReadonlyArray<TestModule>,
    errors: Parameters<Blob['onTestRunEnd']>[1],
    reason: TestRunEndReason,
  ): Promise<void> {
    await this.#run.finished
    await this.#blob.onTestRunEnd(modules, errors, reason)
  }
}
