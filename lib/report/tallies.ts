import { NOT_JUDGED_REASONS } from '../results/verdict.ts'
import type { Result } from '../results/result.ts'
import type { Report } from './model.ts'
import { neverStarted } from './outcome.ts'

/** Counts the human-readable formats show (console, summary.md, report.html): computed once, here. */
export interface Tally {
  label: string
  count: number
  /** A result id to look at. */
  example?: string
}

/**
 * A result as every human-readable format names it: a skipped result is not judged, not configured or not
 * applicable; `error`, a check whose code threw.
 */
export type OutcomeLabel = 'passed' | 'failed' | 'error' | 'not judged' | 'not configured' | 'not applicable'

/** How the human-readable formats head the list of errors: whose they are, never the shop's. */
export const ERRORS_WHOSE = "the suite's or a vendor check's code, not the shop"

export function outcomeLabel(r: Pick<Result, 'status' | 'applicable' | 'reason'>): OutcomeLabel {
  if (r.status !== 'skipped') return r.status
  if (r.applicable === false) return 'not applicable'
  return r.reason === 'not-configured' ? 'not configured' : 'not judged'
}

/**
 * The failures as every format counts them (issue 21: the exit line said "27 failed, 2 extension failed" and
 * summary.md "Failures (29)"): the spec's, and apart from them the extensions' and vendors' (never the spec's verdict).
 */
export function failuresOf(report: Pick<Report, 'results'>): { spec: Result[]; extension: Result[] } {
  const failed = report.results.filter((r) => r.status === 'failed')
  return { spec: failed.filter((r) => r.extension !== true), extension: failed.filter((r) => r.extension === true) }
}

/** What a result without a reason code (a report of an older suite) is counted under. */
const UNSTATED = 'reason not recorded'

/**
 * Required checks not judged, by reason: the skipped results by their reason code, and the selected checks
 * that have no result at all (the run was cut short before them). Largest first.
 */
export function notJudgedTally(
  report: Pick<Report, 'results' | 'certification'> & Partial<Pick<Report, 'exit' | 'partial'>>,
): Tally[] {
  // An extension's or a vendor's result is not required: the report's `extensions` block counts it.
  const skipped = report.results.filter((r) => r.status === 'skipped' && r.applicable !== false && r.extension !== true)
  const tally = countBy(skipped, (r) => (r.reason !== undefined ? NOT_JUDGED_REASONS[r.reason] : UNSTATED))
  const missing = report.certification.notJudged - skipped.length
  if (missing > 0)
    tally.push({
      label:
        neverStarted(report) !== undefined
          ? 'not run: the run never started (see its run error)'
          : 'no result: the run ended before the check finished',
      count: missing,
    })
  return sorted(tally)
}

/** Checks that do not apply to their endpoint, by check kind and why (the check's own words). */
export function notApplicableTally(report: Pick<Report, 'results'>): Tally[] {
  return sorted(
    countBy(
      report.results.filter((r) => r.applicable === false),
      (r) => `${r.check}: ${r.message}`,
    ),
  )
}

/** Warnings by their text, with how many results carry each. */
export function warningTally(report: Pick<Report, 'results'>): Tally[] {
  return sorted(
    countBy(
      report.results.flatMap((r) => (r.warnings ?? []).map((w) => ({ id: r.id, w }))),
      (x) => x.w,
    ),
  )
}

/** Baseline entries whose check now passes, with the entry's reason. */
export function staleEntries(report: Pick<Report, 'baseline'>): { id: string; reason: string }[] {
  const b = report.baseline
  if (b === undefined) return []
  const reason = new Map(b.entries.map((e) => [e.id, e.reason]))
  return b.stale.map((id) => ({ id, reason: reason.get(id) ?? '' }))
}

/** Reasons of the baselined failures, by result id. */
export function baselineReasons(report: Pick<Report, 'baseline'>): Map<string, string> {
  const b = report.baseline
  if (b === undefined) return new Map()
  const excused = new Set(b.baselinedFailures)
  return new Map(b.entries.filter((e) => excused.has(e.id)).map((e) => [e.id, e.reason]))
}

function countBy<T extends { id: string }>(items: readonly T[], key: (item: T) => string): Tally[] {
  const out = new Map<string, Tally>()
  for (const item of items) {
    const label = key(item)
    const t = out.get(label) ?? { label, count: 0, example: item.id }
    t.count++
    out.set(label, t)
  }
  return [...out.values()]
}

function sorted(tally: Tally[]): Tally[] {
  return tally.sort((a, b) => b.count - a.count || a.label.localeCompare(b.label))
}
