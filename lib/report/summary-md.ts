import { leftoversText, runStory } from './outcome.ts'
import { deadlinesText } from '../results/deadlines.ts'
import { PASSIVE, percentText, selectionText } from './certify.ts'
import type { Report } from './model.ts'
import { baselineTally, isProfileName, staleRemedy } from './baseline.ts'
import { implementationOf } from './target.ts'
import { cell, coverageSection, MAX_ROWS, oneLine, schemaSection, serverErrorsSection } from './summary-md-info.ts'
import {
  baselineReasons,
  ERRORS_WHOSE,
  failuresOf,
  notApplicableTally,
  notJudgedTally,
  staleEntries,
  warningTally,
  type Tally,
} from './tallies.ts'

/** Failures listed in full; the rest are counted and left to report.html (a CI job summary holds ~1 MB). */
export const MAX_FAILURES = 50

/**
 * summary.md, what a CI job summary (`$GITHUB_STEP_SUMMARY`) shows: a title with the verdict, the percentage
 * and why the run exits so; what limits it (a run that could not be made, partial, read-only, baseline, cut
 * short, the shop's extension endpoints unchecked); the counts with skipped split into not judged (per reason)
 * and not applicable; the warnings by text; the shop's schema and the server errors the run met (information, never
 * the verdict); the first failures (baselined ones tagged), the errors (checks whose code threw), the stale baseline
 * entries, and a pointer to report.html.
 */
export function markdownSummary(report: Report): string {
  const c = report.certification
  const exit = `exit ${report.exit.status}: ${report.exit.reason}`
  const story = runStory(report)
  const left = leftoversText(report)
  if (story.kind === 'not made') return notMadeSummary(report, exit, left)
  const title = c.verdict === 'not run' || c.verdict === PASSIVE ? c.verdict : `${c.verdict} · ${percentText(c)}`
  const out = [`# Shop conformance: ${title} · ${exit}`, '']
  const marks = limitMarks(report, story.kind === 'cut short' ? story.text : undefined, left)
  if (marks.length > 0) out.push(...marks.map((m) => `- ${m}`), '')
  countsSection(out, report)
  tallySections(out, report)
  coverageSection(out, report)
  schemaSection(out, report)
  serverErrorsSection(out, report)
  failuresSections(out, report)
  errorsSection(out, report)
  staleSection(out, report)
  out.push('', 'Every result, with its exchanges and a curl to reproduce each: report.html.')
  return `${out.join('\n')}\n`
}

/** A run that could not be made: its run error, what it left on the shop, and the facts — no counts to show. */
function notMadeSummary(report: Report, exit: string, left: string | undefined): string {
  const lines = [
    `# Shop conformance: not run · ${exit}`,
    '',
    `**Run error:** ${oneLine(report.runErrors[0] ?? 'unknown')}`,
    '',
  ]
  const leftLines = left !== undefined ? [`**Left on the shop:** ${left}.`, ''] : []
  return `${[...lines, ...leftLines, facts(report)].join('\n')}\n`
}

/**
 * The marks under the title, one per thing that limits what the run states: judged again, passive, partial, cut
 * short (`cutShort`: the story's words), left on the shop, read-only, not configured, baseline, run errors, and
 * the shop's extension endpoints unchecked.
 */
function limitMarks(report: Report, cutShort: string | undefined, left: string | undefined): string[] {
  const c = report.certification
  const r = report.recording
  return [
    ...(report.mode === 'rejudged' && r !== undefined
      ? [
          `**Judged again** from ${r.file} (run ${r.runId} of ${r.suite.name} ${r.suite.version} against ${r.baseUrl}): nothing was sent.`,
        ]
      : []),
    // "partial" once: the title says it when it is the verdict.
    ...(report.passive !== undefined
      ? [
          `**Passive:** ${report.passive.text}; judged from traffic the suite did not send (no request sent): ${PASSIVE}.`,
        ]
      : []),
    ...(c.scope.whole || report.passive !== undefined
      ? []
      : [
          `**${c.verdict === 'partial' ? 'Scope' : 'Partial'}:** ${selectionText(c.scope)} — not a statement about the whole suite.`,
        ]),
    ...(cutShort !== undefined
      ? [`**Cut short:** ${oneLine(cutShort)}; the results cover only what finished before it.`]
      : []),
    ...(left !== undefined ? [`**Left on the shop:** ${left}.`] : []),
    ...(report.run.readOnly
      ? ['**Read-only:** only token calls and GET requests were sent; checks that need a write are not judged.']
      : []),
    ...c.notConfigured.map((n) => `**Not configured:** ${oneLine(n.text)}`),
    ...(report.baseline !== undefined ? [baselineMark(report, report.baseline)] : []),
    ...report.runErrors.map((e) => `**Run error:** ${oneLine(e)}`),
    // Not the spec's, but what a reader must not miss: the checks of the shop's own endpoints did not run.
    ...(report.schema?.status === 'broken'
      ? [
          '**Not checked:** the shop\'s extension endpoints — its schema endpoint is broken (see "The shop\'s schema" below for what it answered and how to check them anyway).',
        ]
      : []),
  ]
}

/** The line of counts, the facts of the run, and the table of every count (skipped split in two). */
function countsSection(out: string[], report: Report): void {
  const c = report.certification
  const s = report.summary
  out.push(
    // The verdict is the title's, the scope a mark's.
    countsLine(c),
    '',
    facts(report),
    '',
    '| passed | failed | errors | baselined | not judged | not applicable | warnings | results | endpoints |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    `| ${s.passed} | ${s.failed - c.baselined} | ${s.errors ?? 0} | ${c.baselined} | ${c.notJudged} | ${s.notApplicable} | ${s.warnings} | ${s.total} | ${s.endpointsChecked} / ${s.endpointsInCatalog} |`,
  )
}

/** The tallies by kind: what was not judged (per reason), what does not apply, and the warnings by text. */
function tallySections(out: string[], report: Report): void {
  const c = report.certification
  const s = report.summary
  table(
    out,
    `Not judged (${c.notJudged})`,
    'A required check that could not be judged: never counted as passed.',
    ['reason', 'checks', 'for example'],
    notJudgedTally(report),
  )
  table(
    out,
    `Not applicable (${s.notApplicable})`,
    'The check does not apply to the endpoint; not counted as required.',
    ['check: why not', 'checks', 'for example'],
    notApplicableTally(report),
  )
  table(
    out,
    `Warnings (${s.warnings})`,
    'Worth a look; not failures.',
    ['warning', 'times', 'for example'],
    warningTally(report),
  )
}

/** The first failures, the spec's and then the extension checks', each tagged with its origin or baseline reason. */
function failuresSections(out: string[], report: Report): void {
  const c = report.certification
  const reasons = baselineReasons(report)
  const { spec, extension } = failuresOf(report)
  for (const [title, failures] of [
    [`Failures (${spec.length}${c.baselined > 0 ? `, ${c.baselined} of them baselined` : ''})`, spec],
    [`Extension check failures (${extension.length}, not the spec's)`, extension],
  ] as const) {
    if (failures.length === 0) continue
    out.push('', `## ${title}`, '', '| result | message | spec |', '|---|---|---|')
    for (const r of failures.slice(0, MAX_FAILURES)) {
      const reason = reasons.get(r.id)
      const baselined = reason !== undefined ? ` **baselined**: ${cell(reason)} —` : ''
      out.push(`| \`${cell(r.id)}\` |${originTag(r)}${baselined} ${cell(r.message)} | ${cell(r.spec.join('; '))} |`)
    }
    if (failures.length > MAX_FAILURES)
      out.push(
        '',
        `… and ${failures.length - MAX_FAILURES} more failures: open report.html (status filter "failed") or report.json.`,
      )
  }
}

/** The checks whose code threw: neither a failure of the shop nor a pass. */
function errorsSection(out: string[], report: Report): void {
  const errors = report.results.filter((r) => r.status === 'error')
  if (errors.length === 0) return
  out.push(
    '',
    `## Errors (${errors.length}): ${ERRORS_WHOSE}`,
    '',
    'A check whose code threw: neither a failure of the shop nor a pass. Its message names whose code and where.',
    '',
    '| result | message |',
    '|---|---|',
  )
  for (const r of errors.slice(0, MAX_FAILURES)) out.push(`| \`${cell(r.id)}\` |${originTag(r)} ${cell(r.message)} |`)
  if (errors.length > MAX_FAILURES)
    out.push(
      '',
      `… and ${errors.length - MAX_FAILURES} more errors: open report.html (status filter "error") or report.json.`,
    )
}

/** A result from outside the spec names its origin before its message; the spec's own name none. */
function originTag(r: Pick<Report['results'][number], 'extension' | 'origin'>): string {
  return r.extension === true ? ` **${r.origin}** (not the spec's) —` : ''
}

/** The baseline's entries whose checks now pass, and how to remove them. */
function staleSection(out: string[], report: Report): void {
  const stale = staleEntries(report)
  // Stale entries are the baseline's: there are some only where the report has one.
  const baseline = report.baseline
  if (stale.length === 0 || baseline === undefined) return
  const remedy = isProfileName(baseline.file)
    ? staleRemedy(baseline, stale.length)
    : `remove the entries from ${baseline.file}`
  const allowed = baseline.allowStale
    ? ' (allowed in this run by --allow-stale)'
    : ' (they fail the run unless --allow-stale)'
  out.push(
    '',
    `## Stale baseline entries (${stale.length})`,
    '',
    `These checks now pass: ${remedy}${allowed}.`,
    '',
    '| entry | reason |',
    '|---|---|',
  )
  for (const e of stale.slice(0, MAX_ROWS)) out.push(`| \`${cell(e.id)}\` | ${cell(e.reason)} |`)
  if (stale.length > MAX_ROWS) out.push('', `… and ${stale.length - MAX_ROWS} more in report.json (baseline.stale).`)
}

function facts(report: Report): string {
  const what = implementationOf(report.target)
  return `Target ${what !== undefined ? `${cell(what)} at ` : ''}\`${report.target.baseUrl}\`, store \`${report.target.storeCode}\`; spec ${report.spec.version}; suite ${report.suite.name} ${report.suite.version}; run ${report.run.id}${report.run.shard !== undefined ? ` (shard ${report.run.shard})` : ''}; seed ${report.run.seed}${report.run.deadlines !== undefined ? `; deadlines used: ${deadlinesText(report.run.deadlines)}` : ''}.`
}

function baselineMark(report: Report, baseline: NonNullable<Report['baseline']>): string {
  return `**Baseline** \`${baseline.file}\`: ${baselineTally(report)}.`
}

function table(out: string[], title: string, note: string, head: [string, string, string], rows: Tally[]): void {
  if (rows.length === 0) return
  out.push('', `## ${title}`, '', note, '', `| ${head.join(' | ')} |`, '|---|---:|---|')
  for (const t of rows.slice(0, MAX_ROWS))
    out.push(`| ${cell(t.label)} | ${t.count} | ${t.example !== undefined ? `\`${cell(t.example)}\`` : ''} |`)
  if (rows.length > MAX_ROWS) out.push('', `… and ${rows.length - MAX_ROWS} more kinds in report.html.`)
}

/** The line of counts under the title: the share of the suite, or what a passive report's traffic showed. */
function countsLine(c: Report['certification']): string {
  if (c.verdict === 'not run') return 'No required check was judged.'
  if (c.verdict === PASSIVE)
    return `From the traffic: ${c.passed} passed, ${c.failed} failed; ${c.notJudged} not observed.`
  return `${percentText(c)} of ${c.required} required checks passed.`
}
