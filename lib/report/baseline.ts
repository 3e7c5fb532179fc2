import { readFileSync } from 'node:fs'
import type { Result } from '../results/result.ts'
import { UsageError } from '../base/usage-error.ts'
import { defined } from '../base/defined.ts'
import type { BaselineEntry, Report } from './model.ts'
import { isObject } from '../base/is-object.ts'
import { plural } from '../base/text.ts'

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
  /** A release profile (lib/report/profiles.ts): the known deviations of one release, shipped in the package. */
  profile?: ProfileHead
  entries: BaselineEntry[]
}

export interface ProfileHead {
  /** `platform:2.4.7-p7`: what `--baseline` takes. */
  name: string
  release: string
  /** What the release is, as it was run: its configuration, what the entries list. */
  about: string
  /** The run the profile was made from (its report's run id, suite and spec versions, date), and the traced list. */
  madeFrom: { run: string; suite: string; spec: string; date: string; deviations?: string }
}

interface BaselineOutcome {
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
  if (data.version !== 1)
    return fail(`wrong shape: "version" must be 1, not ${JSON.stringify(data.version) ?? 'missing'}`)
  if (!Array.isArray(data.entries)) return fail('wrong shape: "entries" must be an array')
  const seen = new Map<string, number>()
  const entries = data.entries.map((entry: unknown, i: number): BaselineEntry => {
    const n = i + 1
    if (!isObject(entry)) return fail(`wrong shape: entry ${n} is not an object`)
    if (typeof entry.id !== 'string' || entry.id.trim() === '') return fail(`wrong shape: entry ${n} has no "id"`)
    if (entry.reason === undefined || entry.reason === null) return fail(`entry ${n} (${entry.id}) has no "reason"`)
    if (typeof entry.reason !== 'string')
      return fail(`wrong shape: entry ${n} (${entry.id}): "reason" must be a string`)
    if (entry.reason.trim() === '') return fail(`entry ${n} (${entry.id}) has an empty "reason"`)
    const first = seen.get(entry.id)
    if (first !== undefined) return fail(`duplicate id "${entry.id}" (entries ${first} and ${n})`)
    seen.set(entry.id, n)
    const { release, evidence } = entry
    if (release !== undefined && !isText(release))
      return fail(`wrong shape: entry ${n} (${entry.id}): "release" must be a string`)
    if (evidence !== undefined && !(isObject(evidence) && isText(evidence.kind) && isText(evidence.why))) {
      return fail(`wrong shape: entry ${n} (${entry.id}): "evidence" must be { "kind": "...", "why": "..." }`)
    }
    return {
      id: entry.id,
      reason: entry.reason,
      ...(release !== undefined ? { release } : {}),
      ...(evidence !== undefined ? { evidence: { kind: evidence.kind as string, why: evidence.why as string } } : {}),
    }
  })
  if (data.profile === undefined) return { version: 1, entries }
  return { version: 1, profile: profileHead(data.profile, fail), entries }
}

function profileHead(head: unknown, fail: (problem: string) => never): ProfileHead {
  const made = isObject(head) ? head.madeFrom : undefined
  if (
    !isObject(head) ||
    !isText(head.name) ||
    !isText(head.release) ||
    !isText(head.about) ||
    !isObject(made) ||
    ![made.run, made.suite, made.spec, made.date].every(isText)
  ) {
    return fail(
      'wrong shape: "profile" must be { "name", "release", "about", "madeFrom": { "run", "suite", "spec", "date" } }',
    )
  }
  if (made.deviations !== undefined && !isText(made.deviations))
    return fail('wrong shape: "profile.madeFrom.deviations" must be a string')
  const madeFrom = {
    run: made.run as string,
    suite: made.suite as string,
    spec: made.spec as string,
    date: made.date as string,
    ...(made.deviations !== undefined ? { deviations: made.deviations } : {}),
  }
  return { name: head.name, release: head.release, about: head.about, madeFrom }
}

function isText(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== ''
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
export function baselineBlock(
  file: string,
  baseline: Baseline,
  outcome: BaselineOutcome,
  allowStale: boolean,
): NonNullable<Report['baseline']> {
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

/**
 * What `--baseline` names: a file, or a release profile shipped in the package (`platform:2.4.7-p7`, see
 * profiles.ts). A path (it holds a `/` or `\\`, or a one-letter drive such as `C:`) is always a file.
 */
export function isProfileName(value: string): boolean {
  return /^[a-z][a-z0-9-]+:[A-Za-z0-9][A-Za-z0-9._+-]*$/.test(value)
}

/**
 * What a reader does about `n` stale entries (each format says it the same way): a file's entries go from the
 * file; a shipped profile's stay, since the release does fail them: the shop does better than its release there.
 */
export function staleRemedy(b: Pick<NonNullable<Report['baseline']>, 'file'>, n: number): string {
  const them = n === 1 ? 'it' : 'them'
  if (!isProfileName(b.file)) return `remove ${them} or pass --allow-stale`
  return `the shop does better than release ${b.file.slice(b.file.indexOf(':') + 1)} here: pass --allow-stale, or copy the profile (baseline list) and remove ${them}`
}

/**
 * The baseline's state in one phrase, the same in every format: new failures of the spec counted apart from an
 * extension's or a vendor's (as the exit reason counts them), then the entries' states.
 */
export function baselineTally(report: Pick<Report, 'baseline' | 'results'>): string {
  const b = defined(report.baseline, 'the baseline of a report its caller saw had one')
  const extension = new Set(report.results.filter((r) => r.extension === true).map((r) => r.id))
  const ext = b.newFailures.filter((id) => extension.has(id)).length
  const allowed = b.allowStale && b.stale.length > 0 ? ' (allowed)' : ''
  return `${plural(b.newFailures.length - ext, 'new failure')}, ${b.baselinedFailures.length} baselined, ${b.stale.length} stale${allowed}, ${b.unjudged.length} not judged, ${b.notInThisRun.length} not in this run${ext > 0 ? `; ${plural(ext, 'new extension check failure')} (not the spec's)` : ''}`
}

/** Readable lines on where the baseline stands, for the end of a run. */
export function baselineSummary(report: Pick<Report, 'baseline' | 'results'>): string {
  const b = defined(report.baseline, 'the baseline of a report its caller saw had one')
  const extension = new Set(report.results.filter((r) => r.extension === true).map((r) => r.id))
  const lines = [`Baseline ${b.file}: ${baselineTally(report)}`]
  const fresh = b.newFailures
  for (const id of fresh.slice(0, 50))
    lines.push(`  ✗ new: ${id}${extension.has(id) ? " (an extension's, not the spec's)" : ''}`)
  if (fresh.length > 50) lines.push(`  … and ${fresh.length - 50} more`)
  for (const id of b.stale)
    lines.push(`  ! stale (now passes${b.allowStale ? ', allowed' : `; ${staleRemedy(b, 1)}`}): ${id}`)
  return `${lines.join('\n')}\n`
}

/** A baseline listing every failure of the report; reason `"<message or given reason> (baselined <date>)"`. */
export function baselineFromReport(report: Pick<Report, 'results'>, reason?: string, now: Date = new Date()): Baseline {
  const date = now.toISOString().slice(0, 10)
  return {
    version: 1,
    entries: report.results
      .filter((r) => r.status === 'failed')
      .map((r) => ({ id: r.id, reason: `${oneLine(reason ?? r.message)} (baselined ${date})` })),
  }
}

export function baselineJson(baseline: Baseline): string {
  return `${JSON.stringify(baseline, null, 2)}\n`
}

/** A message as one line of a reason: its whitespace flattened. */
export function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat === '' ? 'failing' : flat
}
