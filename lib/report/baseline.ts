import { readFileSync } from 'node:fs'
import type { Result } from '../results/result.ts'
import { UsageError } from '../base/usage-error.ts'
import type { Report } from './model.ts'
import { isObject } from '../base/is-object.ts'

/**
 * A baseline: the result ids a team knows fail, each with the reason it is accepted for now. With one, only
 * failures it does not list fail the run; an entry whose check now passes is stale and fails the run too
 * (unless allowed), so the file shrinks as the target is fixed instead of hiding regressions forever.
 *
 * ```json
 * { "version": 1, "entries": [ { "id": "GET /V1/modules › access", "reason": "ticket SHOP-123" } ] }
 * ```
 */
export interface Baseline {
  version: 1
  entries: BaselineEntry[]
}

export interface BaselineEntry {
  /** A result id: `<METHOD> <path> › <check>` or `workflow <name> › <nn> <title>`. */
  id: string
  reason: string
}

export interface BaselineOutcome {
  /** Failures the baseline does not list: these fail the run. */
  newFailures: Result[]
  /** Failures the baseline lists: excused, but the run does not "conform" either. */
  baselinedFailures: Result[]
  /** Entries whose result now passes: the entry should go. */
  stale: BaselineEntry[]
  /** Entries whose result was skipped (not judged) in this run: neither excused nor stale. */
  unjudged: BaselineEntry[]
  /** Entries matching no result of this run (another module or check was selected, or the id is wrong). */
  unknown: BaselineEntry[]
}

/** Reads and validates a baseline file; any problem is a UsageError naming the file and the problem. */
export function readBaseline(path: string): Baseline {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (err) {
    const e = err as NodeJS.ErrnoException
    throw new UsageError(`baseline ${path}: cannot read it (${e.code ?? e.message})`)
  }
  return parseBaseline(text, path)
}

export function parseBaseline(text: string, path: string): Baseline {
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch (err) {
    throw new UsageError(`baseline ${path}: not JSON (${(err as Error).message.split('\n')[0]})`)
  }
  const fail = (problem: string): never => {
    throw new UsageError(`baseline ${path}: ${problem}`)
  }
  if (!isObject(data)) return fail('wrong shape: expected an object { "version": 1, "entries": [...] }')
  if (data.version !== 1) return fail(`wrong shape: "version" must be 1, not ${JSON.stringify(data.version) ?? 'missing'}`)
  if (!Array.isArray(data.entries)) return fail('wrong shape: "entries" must be an array')
  const seen = new Map<string, number>()
  const entries = data.entries.map((entry: unknown, i: number): BaselineEntry => {
    const n = i + 1
    if (!isObject(entry)) return fail(`wrong shape: entry ${n} is not an object`)
    if (typeof entry.id !== 'string' || entry.id.trim() === '') return fail(`wrong shape: entry ${n} has no "id"`)
    if (entry.reason === undefined || entry.reason === null) return fail(`entry ${n} (${entry.id}) has no "reason"`)
    if (typeof entry.reason !== 'string') return fail(`wrong shape: entry ${n} (${entry.id}): "reason" must be a string`)
    if (entry.reason.trim() === '') return fail(`entry ${n} (${entry.id}) has an empty "reason"`)
    const first = seen.get(entry.id)
    if (first !== undefined) return fail(`duplicate id "${entry.id}" (entries ${first} and ${n})`)
    seen.set(entry.id, n)
    return { id: entry.id, reason: entry.reason }
  })
  return { version: 1, entries }
}

export function applyBaseline(report: Pick<Report, 'results'>, baseline: Baseline): BaselineOutcome {
  const listed = new Map(baseline.entries.map((e) => [e.id, e]))
  const byId = new Map(report.results.map((r) => [r.id, r]))
  const failures = report.results.filter((r) => r.status === 'failed')
  const status = (e: BaselineEntry) => byId.get(e.id)?.status
  return {
    newFailures: failures.filter((r) => !listed.has(r.id)),
    baselinedFailures: failures.filter((r) => listed.has(r.id)),
    stale: baseline.entries.filter((e) => status(e) === 'passed'),
    // A check whose code threw judged nothing either: the entry stays, neither stale nor a failure again.
    unjudged: baseline.entries.filter((e) => status(e) === 'skipped' || status(e) === 'error'),
    unknown: baseline.entries.filter((e) => status(e) === undefined),
  }
}

/** The report's `baseline` block: the file's entries, and where each stands in this run. */
export function baselineBlock(file: string, baseline: Baseline, outcome: BaselineOutcome, allowStale: boolean): NonNullable<Report['baseline']> {
  return {
    file,
    allowStale,
    entries: baseline.entries,
    newFailures: outcome.newFailures.map((r) => r.id),
    baselinedFailures: outcome.baselinedFailures.map((r) => r.id),
    stale: outcome.stale.map((e) => e.id),
    unjudged: outcome.unjudged.map((e) => e.id),
    notInThisRun: outcome.unknown.map((e) => e.id),
  }
}

/** Readable lines on where the baseline stands, for the end of a run. */
export function baselineSummary(b: NonNullable<Report['baseline']>): string {
  const lines: string[] = []
  const { newFailures: fresh, baselinedFailures: old, stale, unjudged, notInThisRun } = b
  lines.push(`Baseline ${b.file}: ${fresh.length} new failure${fresh.length === 1 ? '' : 's'}, ${old.length} baselined, ${stale.length} stale, ${unjudged.length} not judged, ${notInThisRun.length} not in this run`)
  for (const id of fresh.slice(0, 50)) lines.push(`  ✗ new: ${id}`)
  if (fresh.length > 50) lines.push(`  … and ${fresh.length - 50} more`)
  for (const id of stale) lines.push(`  ! stale (now passes${b.allowStale ? ', allowed' : '; remove it or pass --allow-stale'}): ${id}`)
  return `${lines.join('\n')}\n`
}

/** A baseline listing every failure of the report; reason `"<message or given reason> (baselined <date>)"`. */
export function baselineFromReport(report: Pick<Report, 'results'>, reason?: string, now: Date = new Date()): Baseline {
  const date = now.toISOString().slice(0, 10)
  return {
    version: 1,
    entries: report.results.filter((r) => r.status === 'failed').map((r) => ({ id: r.id, reason: `${oneLine(reason ?? r.message)} (baselined ${date})` })),
  }
}

export function baselineJson(baseline: Baseline): string {
  return `${JSON.stringify(baseline, null, 2)}\n`
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat === '' ? 'failing' : flat
}

