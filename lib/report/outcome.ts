import { plural } from '../base/text.ts'
import type { Report } from './model.ts'

/**
 * Exit status of `run`: 0 no check failed (with a baseline: no new failure and no stale entry, unless
 * allowed); 1 a check failed, a stale baseline entry, or an error of the run after it started; 2 the run could
 * not be made; 124 the deadline cut the run short; 130/143 interrupted by SIGINT/SIGTERM.
 *
 * A run cut short gets its own status, never 1: it says "we do not know", not "the target fails", so a CI can
 * retry it or give it more time instead of blaming the target (124 is what timeout(1) exits with).
 */
export type ExitStatus = 0 | 1 | 2 | 124 | 130 | 143

export interface Exit {
  status: ExitStatus
  /** One line: why the run exits so, e.g. `1: 3 checks failed`. */
  reason: string
}

export function exitOf(report: Pick<Report, 'results' | 'runErrors' | 'partial' | 'baseline'>, made = true): Exit {
  if (!made) return { status: 2, reason: `the run could not be made: ${report.runErrors[0] ?? 'no reason recorded'}` }
  const b = report.baseline
  const failed = report.results.filter((r) => r.status === 'failed').length
  const fresh = b !== undefined ? b.newFailures.length : failed
  const stale = b !== undefined && !b.allowStale ? b.stale.length : 0
  const findings = [
    fresh > 0 ? (b !== undefined ? `${plural(fresh, 'new failure')} (not in the baseline)` : `${plural(fresh, 'check')} failed`) : '',
    stale > 0 ? `${plural(stale, 'stale baseline entry', 'stale baseline entries')} (now passing: remove ${stale === 1 ? 'it' : 'them'} or pass --allow-stale)` : '',
  ].filter((t) => t !== '')
  const stop = report.partial?.reason
  if (stop !== undefined) {
    const status: ExitStatus = stop === 'deadline' ? 124 : stop === 'SIGINT' ? 130 : 143
    const what = stop === 'deadline' ? 'cut short by the run deadline (--run-timeout-ms)' : `interrupted by ${stop}`
    return { status, reason: `${what}: the results cover only what finished${findings.length > 0 ? `; before that, ${findings.join(', ')}` : ''}` }
  }
  const errors = report.runErrors.length > 0 ? [plural(report.runErrors.length, 'run error')] : []
  if (findings.length + errors.length > 0) return { status: 1, reason: [...findings, ...errors].join(', ') }
  if (b === undefined) return { status: 0, reason: 'no check failed' }
  const allowed = b.allowStale && b.stale.length > 0 ? `, ${plural(b.stale.length, 'stale entry', 'stale entries')} allowed` : ''
  return { status: 0, reason: `no new failure (${b.baselinedFailures.length} baselined${allowed})` }
}
