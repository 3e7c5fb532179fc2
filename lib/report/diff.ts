import type { Status } from '../results/verdict.ts'
import type { Result } from '../results/result.ts'
import type { Report } from './model.ts'
import { outcomeLabel, type OutcomeLabel } from './tallies.ts'
import { implementationOf } from './target.ts'
import { endpointText } from '../spec/endpoint-id.ts'

/** Two runs compared result by result, keyed by the stable result id. */
interface ReportDiff {
  a: DiffSide
  b: DiffSide
  /** In both; failed in b, not in a. */
  newlyFailing: DiffEntry[]
  /** In both; failed in a, passed in b. */
  newlyPassing: DiffEntry[]
  /**
   * In both; any other change (e.g. failed → not judged, not applicable → not judged, not judged → passed, and
   * passed → error: a check whose code threw is no new failure of the target).
   */
  changed: DiffEntry[]
  onlyInA: DiffEntry[]
  /** Results b has and a has not; `before` is null. Failures among them count as failing anew. */
  onlyInB: DiffEntry[]
  unchanged: number
}

interface DiffSide {
  runId: string
  baseUrl: string
  /** What the target runs, as the formats name it (`Platform 2.4.7-p7`), when the report says. */
  implementation?: string
  specVersion: string
  suiteVersion: string
  startedAt: string
  summary: Report['summary']
  /** Why the run was cut short, when it was: its missing results are not "only in" the other. */
  partial?: string
}

interface DiffEntry {
  id: string
  module: string
  check: string
  endpoint: string
  before: Status | null
  after: Status | null
  /** The same as the other outputs name it: a skipped result is `not judged`, `not configured` or `not applicable`. */
  beforeOutcome: OutcomeLabel | null
  afterOutcome: OutcomeLabel | null
  /** The message of the newer side that has the result. */
  message: string
}

export function diffReports(a: Report, b: Report): ReportDiff {
  const inA = new Map(a.results.map((r) => [r.id, r]))
  const inB = new Map(b.results.map((r) => [r.id, r]))
  const out: ReportDiff = {
    a: side(a),
    b: side(b),
    newlyFailing: [],
    newlyPassing: [],
    changed: [],
    onlyInA: [],
    onlyInB: [],
    unchanged: 0,
  }
  for (const [id, ra] of inA) {
    const rb = inB.get(id)
    if (rb === undefined) {
      out.onlyInA.push(entry(ra, ra, undefined))
    } else if (outcomeLabel(ra) === outcomeLabel(rb)) {
      out.unchanged++
    } else if (rb.status === 'failed') {
      out.newlyFailing.push(entry(rb, ra, rb))
    } else if (ra.status === 'failed' && rb.status === 'passed') {
      out.newlyPassing.push(entry(rb, ra, rb))
    } else {
      // Also a skipped result that is skipped for another reason: not applicable before, not judged now.
      out.changed.push(entry(rb, ra, rb))
    }
  }
  for (const [id, rb] of inB) if (!inA.has(id)) out.onlyInB.push(entry(rb, undefined, rb))
  return out
}

/** Something fails in b that did not fail in a: a result newly failing, or a failing result a did not have. */
export function hasNewFailures(diff: ReportDiff): boolean {
  return diff.newlyFailing.length > 0 || diff.onlyInB.some((e) => e.after === 'failed')
}

export function diffText(diff: ReportDiff, names: { a: string; b: string } = { a: 'A', b: 'B' }): string {
  const newOnlyB = diff.onlyInB.filter((e) => e.after === 'failed').length
  const lines = [
    `A: ${names.a} — ${describe(diff.a)}`,
    `B: ${names.b} — ${describe(diff.b)}`,
    `${diff.newlyFailing.length} newly failing, ${diff.newlyPassing.length} newly passing, ${diff.changed.length} other changes, ${diff.onlyInA.length} only in A, ${diff.onlyInB.length} only in B${newOnlyB > 0 ? ` (${newOnlyB} failing)` : ''}, ${diff.unchanged} unchanged`,
  ]
  const section = (title: string, entries: DiffEntry[], line: (e: DiffEntry) => string, max = 100) => {
    if (entries.length === 0) return
    lines.push('', `${title}:`)
    for (const e of entries.slice(0, max)) lines.push(`  ${line(e)}`)
    if (entries.length > max) lines.push(`  … and ${entries.length - max} more (--format json lists all)`)
  }
  section('Newly failing', diff.newlyFailing, (e) => `✗ ${e.id} (was ${e.beforeOutcome}) — ${e.message}`)
  section(
    'Failing, only in B',
    diff.onlyInB.filter((e) => e.after === 'failed'),
    (e) => `✗ ${e.id} — ${e.message}`,
  )
  section('Newly passing', diff.newlyPassing, (e) => `✓ ${e.id}`)
  section('Other changes', diff.changed, (e) => `~ ${e.id}: ${e.beforeOutcome} → ${e.afterOutcome}`)
  section('Only in A', diff.onlyInA, (e) => `- ${e.id} (${e.beforeOutcome})`, 30)
  section(
    'Only in B',
    diff.onlyInB.filter((e) => e.after !== 'failed'),
    (e) => `+ ${e.id} (${e.afterOutcome})`,
    30,
  )
  if (
    diff.newlyFailing.length +
      diff.newlyPassing.length +
      diff.changed.length +
      diff.onlyInA.length +
      diff.onlyInB.length ===
    0
  )
    lines.push('', 'No differences.')
  return `${lines.join('\n')}\n`
}

function side(r: Report): DiffSide {
  const implementation = implementationOf(r.target)
  return {
    runId: r.run.id,
    baseUrl: r.target.baseUrl,
    ...(implementation !== undefined ? { implementation } : {}),
    specVersion: r.spec.version,
    suiteVersion: r.suite.version,
    startedAt: r.startedAt,
    summary: r.summary,
    ...(r.partial !== undefined ? { partial: r.partial.reason } : {}),
  }
}

/** `r` is the newer side's result; `a` and `b` each side's, where it has one. */
function entry(r: Result, a: Result | undefined, b: Result | undefined): DiffEntry {
  return {
    id: r.id,
    module: r.module,
    check: r.check,
    endpoint: endpointText(r.endpoint),
    before: a?.status ?? null,
    after: b?.status ?? null,
    beforeOutcome: a !== undefined ? outcomeLabel(a) : null,
    afterOutcome: b !== undefined ? outcomeLabel(b) : null,
    message: r.message,
  }
}

function describe(s: DiffSide): string {
  return `run ${s.runId}, ${s.implementation !== undefined ? `${s.implementation} at ` : ''}${s.baseUrl}, spec ${s.specVersion}, ${s.startedAt}: ${counts(s.summary)}${s.partial !== undefined ? ` (partial run: ${s.partial})` : ''}`
}

function counts(s: Report['summary']): string {
  return `${s.passed} passed, ${s.failed} failed, ${(s.errors ?? 0) > 0 ? `${s.errors} errors, ` : ''}${s.skipped - s.notApplicable} not judged, ${s.notApplicable} not applicable`
}
