import { plural } from '../base/text.ts'
import { ERROR_OF } from '../results/crash.ts'
import type { Result } from '../results/result.ts'

/** On stderr under `shop-conformance run`: each failure (✗) and error (!) as it comes. */
export function failureLine(r: Result): string {
  return `  ${r.status === 'error' ? '!' : '✗'} ${r.id} — ${r.message.length > 160 ? `${r.message.slice(0, 160)}…` : r.message}\n`
}

/** …then a line per module as it finishes. */
export function moduleLine(module: string, results: readonly Result[]): string {
  const judged = results.filter((r) => r.applicable !== false)
  const count = (status: string) => judged.filter((r) => r.status === status).length
  const failed = count('failed')
  const skipped = count('skipped')
  const errors = count('error')
  return `  ${module.padEnd(30)} ${String(judged.length).padStart(4)} checks  ${count('passed')} passed${failed > 0 ? `, ${failed} FAILED` : ''}${errors > 0 ? `, ${plural(errors, 'ERROR')}` : ''}${skipped > 0 ? `, ${skipped} not judged` : ''}\n`
}

/** The module a suite file runs: `suites/<module>.conformance.ts`. */
export function moduleIdOf(suiteFile: string): string {
  return suiteFile.replace(/^.*\//, '').replace(/\.conformance\.ts$/, '')
}

/**
 * A test that ended without a result (a crash of the suite outside a check's own code, which judgeCheck files
 * as its owner's error) is an error of the suite: never a silent gap, never the shop's failure.
 */
export function crashResult(name: string, module: string, error: string): Result {
  const m = /^(\S+) (\S+) › (.+)$/.exec(name)
  return {
    id: name,
    module,
    endpoint: { method: m?.[1] ?? '?', path: m?.[2] ?? '?' },
    check: m?.[3] ?? '?',
    status: 'error',
    message: `${ERROR_OF.suite}: the check ended without a verdict: ${error}`,
    durationMs: 0,
    spec: [],
    exchanges: [],
  }
}
