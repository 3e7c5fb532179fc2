import { MODULES } from '../spec/modules.ts'
import type { Result } from '../run/result.ts'

/**
 * What a run says about a target, module by module. "Required" checks are the applicable ones (rules the
 * spec states for the endpoint); a run with an unjudged required check, a run error, or failures excused by
 * a baseline is never labelled "conforms".
 */
export type Verdict = 'conforms' | 'does not conform' | 'incomplete' | 'not run'

export interface ModuleStatement {
  module: string
  title: string
  verdict: Verdict
  passed: number
  failed: number
  /** Required checks that were skipped: not judged. */
  notJudged: number
  /** Failures listed in the baseline (they do not fail the run, and do not make it conform either). */
  baselined: number
  text: string
}

export interface Conformance {
  /** Passed required checks as a percentage of all required checks (0–100, one decimal). */
  percent: number
  required: number
  passed: number
  verdict: Verdict
}

export function conformance(results: readonly Result[], options: { runErrors?: readonly string[]; baselined?: ReadonlySet<string> } = {}): Conformance {
  const required = results.filter((r) => r.applicable !== false)
  const passed = required.filter((r) => r.status === 'passed').length
  return {
    percent: required.length === 0 ? 0 : Math.floor((passed / required.length) * 1000) / 10,
    required: required.length,
    passed,
    verdict: verdictOf(required, options.runErrors ?? [], options.baselined ?? new Set()),
  }
}

export function moduleStatements(results: readonly Result[], options: { baselined?: ReadonlySet<string> } = {}): ModuleStatement[] {
  const baselined = options.baselined ?? new Set<string>()
  return MODULES.map(({ id, title }) => {
    const required = results.filter((r) => r.module === id && r.applicable !== false)
    const count = (s: Result['status']) => required.filter((r) => r.status === s).length
    const failed = required.filter((r) => r.status === 'failed' && !baselined.has(r.id)).length
    const excused = required.filter((r) => r.status === 'failed' && baselined.has(r.id)).length
    const verdict = verdictOf(required, [], baselined)
    const text =
      verdict === 'not run'
        ? 'not run'
        : verdict === 'conforms'
          ? `conforms (${count('passed')} checks passed)`
          : [failed > 0 ? `${failed} failure${failed > 1 ? 's' : ''}` : '', excused > 0 ? `${excused} baselined` : '', count('skipped') > 0 ? `${count('skipped')} not judged` : '']
              .filter((t) => t !== '')
              .join(', ')
    return { module: id, title, verdict, passed: count('passed'), failed, notJudged: count('skipped'), baselined: excused, text }
  })
}

function verdictOf(required: readonly Result[], runErrors: readonly string[], baselined: ReadonlySet<string>): Verdict {
  if (required.length === 0) return 'not run'
  if (required.some((r) => r.status === 'failed' && !baselined.has(r.id))) return 'does not conform'
  if (runErrors.length > 0 || required.some((r) => r.status === 'skipped' || (r.status === 'failed' && baselined.has(r.id)))) return 'incomplete'
  return 'conforms'
}
