import { applyBaseline, baselineBlock, type Baseline } from './baseline.ts'
import { certify, passiveCertification } from './certify.ts'
import type { Report } from './model.ts'
import { extensionsBlock } from './extensions.ts'
import { exitOf } from './outcome.ts'

/** A report before what is judged from its results: the baseline state, the certification and the exit. */
export type ReportDraft = Omit<Report, 'baseline' | 'certification' | 'exit' | 'extensions'>

export interface Judging {
  /** False when the run could not be made (no check ran): exit 2. */
  made: boolean
  baseline?: { file: string; baseline: Baseline; allowStale: boolean }
}

/**
 * The one place a report's judgement is made, for a run and for a merge alike: the baseline's state over
 * the results, the certification (scope, verdicts) and the exit status with its reason. Every format reads
 * these from the report and judges nothing of its own.
 */
export function completeReport(draft: ReportDraft, judging: Judging): Report {
  const b = judging.baseline
  const baseline =
    b !== undefined ? baselineBlock(b.file, b.baseline, applyBaseline(draft, b.baseline), b.allowStale) : undefined
  const extensions = extensionsBlock(draft.results, draft.run.extensions ?? 'gate')
  const withBaseline = {
    ...draft,
    ...(baseline !== undefined ? { baseline } : {}),
    ...(extensions !== undefined ? { extensions } : {}),
  }
  const certified = certify({
    results: draft.results,
    runErrors: draft.runErrors,
    plan: draft.plan,
    ...(baseline !== undefined ? { baselined: new Set(baseline.baselinedFailures) } : {}),
  })
  // Traffic the suite did not send is judged, never certified.
  const certification = draft.mode === 'passive' ? passiveCertification(certified) : certified
  // Results last: report.json reads from the verdict down to the evidence.
  const { results, ...head } = withBaseline
  return { ...head, certification, exit: exitOf(withBaseline, judging.made), results }
}
