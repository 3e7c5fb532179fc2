import type { Reporter, TestCase, TestModule } from 'vitest/node'
import { NOTES_META_KEY, RESULT_META_KEY } from './register.ts'
import type { Result } from '../results/result.ts'

/** Listeners for progress on the terminal: results as they come, and a line per finished module. */
export interface Progress {
  onResult?(result: Result): void
  onModuleEnd?(moduleFile: string, results: Result[]): void
}

/**
 * The vitest reporter of a conformance run: it turns finished tests into results as they arrive. A test
 * that ended without a result (a crash inside the suite) still becomes a failed result, never a silent gap.
 */
export class ResultCollector implements Reporter {
  readonly results: Result[] = []
  readonly errors: string[] = []
  /** What the session told along the way (e.g. a renewed token). */
  readonly notes: string[] = []
  readonly #progress: Progress
  readonly #byModuleFile = new Map<string, Result[]>()
  /**
   * Set when the run is being stopped: from then on a test's verdict may rest on a request the stop cut off,
   * and one without a verdict was cut short, not crashed. Neither is a result: what was judged before the
   * stop reaches the run through the worker's result stream (stream.ts).
   */
  cancelled = false

  constructor(progress: Progress = {}) {
    this.#progress = progress
  }

  onTestCaseResult(testCase: TestCase): void {
    if (this.cancelled) return
    const meta = testCase.meta() as Record<string, unknown>
    const notes = meta[NOTES_META_KEY]
    if (Array.isArray(notes)) this.notes.push(...(notes as string[]))
    let result = meta[RESULT_META_KEY] as Result | undefined
    if (result === undefined) {
      const state = testCase.result()
      if (state.state === 'skipped' && state.note === undefined) return // filtered out, not a result
      const error = state.errors?.[0]?.message ?? 'the check ended without a verdict'
      result = crashResult(testCase.name, moduleIdOf(testCase.module.moduleId), error)
    }
    this.results.push(result)
    const file = testCase.module.moduleId
    const list = this.#byModuleFile.get(file) ?? []
    list.push(result)
    this.#byModuleFile.set(file, list)
    this.#progress.onResult?.(result)
  }

  onTestModuleEnd(testModule: TestModule): void {
    const errors = testModule.errors()
    for (const e of errors) this.errors.push(`${testModule.moduleId}: ${e.message}`)
    this.#progress.onModuleEnd?.(testModule.moduleId, this.#byModuleFile.get(testModule.moduleId) ?? [])
  }

  onTestRunEnd(_modules: unknown, unhandledErrors: ReadonlyArray<{ message?: string }>): void {
    for (const e of unhandledErrors) this.errors.push(e.message ?? String(e))
  }
}

export function moduleIdOf(suiteFile: string): string {
  return suiteFile.replace(/^.*\//, '').replace(/\.conformance\.ts$/, '')
}

function crashResult(name: string, module: string, error: string): Result {
  const m = /^(\S+) (\S+) › (.+)$/.exec(name)
  return {
    id: name,
    module,
    endpoint: { method: m?.[1] ?? '?', path: m?.[2] ?? '?' },
    check: m?.[3] ?? '?',
    status: 'failed',
    message: `the suite itself failed while checking: ${error}`,
    durationMs: 0,
    spec: [],
    exchanges: [],
  }
}
