import { leftoversText, runStory } from './outcome.ts'
import { clip } from '../base/text.ts'
import { operationOf, type ServerErrorEntry } from '../results/server-errors.ts'
import { deadlinesText } from '../results/deadlines.ts'
import { PASSIVE, percentText, selectionText } from './certify.ts'
import type { Report } from './model.ts'
import { baselineTally, isProfileName, staleRemedy } from './baseline.ts'
import { implementationOf } from './target.ts'
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
const MAX_ROWS = 30

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
  const s = report.summary
  const exit = `exit ${report.exit.status}: ${report.exit.reason}`
  const story = runStory(report)
  const left = leftoversText(report)
  if (story.kind === 'not made') {
    const lines = [
      `# Shop conformance: not run · ${exit}`,
      '',
      `**Run error:** ${oneLine(report.runErrors[0] ?? 'unknown')}`,
      '',
    ]
    return `${[...lines, ...(left !== undefined ? [`**Left on the shop:** ${left}.`, ''] : []), facts(report)].join('\n')}\n`
  }
  const title = c.verdict === 'not run' || c.verdict === PASSIVE ? c.verdict : `${c.verdict} · ${percentText(c)}`
  const out = [`# Shop conformance: ${title} · ${exit}`, '']
  const r = report.recording
  const marks = [
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
    ...(story.kind === 'cut short'
      ? [`**Cut short:** ${oneLine(story.text)}; the results cover only what finished before it.`]
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
  if (marks.length > 0) out.push(...marks.map((m) => `- ${m}`), '')
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

  coverageSection(out, report)
  schemaSection(out, report)
  serverErrorsSection(out, report)
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
      const tag = `${r.extension === true ? ` **${r.origin}** (not the spec's) —` : ''}${reason !== undefined ? ` **baselined**: ${cell(reason)} —` : ''}`
      out.push(`| \`${cell(r.id)}\` |${tag} ${cell(r.message)} | ${cell(r.spec.join('; '))} |`)
    }
    if (failures.length > MAX_FAILURES)
      out.push(
        '',
        `… and ${failures.length - MAX_FAILURES} more failures: open report.html (status filter "failed") or report.json.`,
      )
  }
  const errors = report.results.filter((r) => r.status === 'error')
  if (errors.length > 0) {
    out.push(
      '',
      `## Errors (${errors.length}): ${ERRORS_WHOSE}`,
      '',
      'A check whose code threw: neither a failure of the shop nor a pass. Its message names whose code and where.',
      '',
      '| result | message |',
      '|---|---|',
    )
    for (const r of errors.slice(0, MAX_FAILURES))
      out.push(
        `| \`${cell(r.id)}\` |${r.extension === true ? ` **${r.origin}** (not the spec's) —` : ''} ${cell(r.message)} |`,
      )
    if (errors.length > MAX_FAILURES)
      out.push(
        '',
        `… and ${errors.length - MAX_FAILURES} more errors: open report.html (status filter "error") or report.json.`,
      )
  }
  const stale = staleEntries(report)
  // Stale entries are the baseline's: there are some only where the report has one.
  const baseline = report.baseline
  if (stale.length > 0 && baseline !== undefined) {
    out.push(
      '',
      `## Stale baseline entries (${stale.length})`,
      '',
      `These checks now pass: ${isProfileName(baseline.file) ? staleRemedy(baseline, stale.length) : `remove the entries from ${baseline.file}`}${baseline.allowStale ? ' (allowed in this run by --allow-stale)' : ' (they fail the run unless --allow-stale)'}.`,
      '',
      '| entry | reason |',
      '|---|---|',
    )
    for (const e of stale.slice(0, MAX_ROWS)) out.push(`| \`${cell(e.id)}\` | ${cell(e.reason)} |`)
    if (stale.length > MAX_ROWS) out.push('', `… and ${stale.length - MAX_ROWS} more in report.json (baseline.stale).`)
  }
  out.push('', 'Every result, with its exchanges and a curl to reproduce each: report.html.')
  return `${out.join('\n')}\n`
}

/** The shop's schema and the checks from outside the spec: sections of their own, never the verdict above. */
function schemaSection(out: string[], report: Report): void {
  const { schema, extensions } = report
  if (extensions !== undefined) out.push('', '## Extensions', '', `${cell(extensions.text)}.`)
  if (schema === undefined) return
  out.push('', "## The shop's schema", '', cell(schema.text))
  for (const n of [...schema.notes, ...schema.notJudged.map((j) => `${j.kind} not judged: ${j.reason}`)])
    out.push(`- ${cell(n)}`)
  if (schema.findings.length === 0) return
  out.push('', '| operation | finding | the schema declares | the spec says |', '|---|---|---|---|')
  for (const f of schema.findings.slice(0, MAX_ROWS))
    out.push(
      `| \`${cell(f.operation)}\` | ${cell(f.kind)}${f.field !== undefined ? ` (\`${cell(f.field)}\`)` : ''} | ${cell(f.declared)} | ${cell(f.spec)} (${cell(f.section)}) |`,
    )
  if (schema.findings.length > MAX_ROWS)
    out.push('', `… and ${schema.findings.length - MAX_ROWS} more in report.json (schema.findings).`)
}

/** Every server error the run met, each request once: a section of its own, never the verdict above. */
function serverErrorsSection(out: string[], report: Report): void {
  const block = report.serverErrors
  if (block === undefined || block.answers === 0) return
  const head = [
    'operation',
    'caller',
    'status',
    "the shop's message",
    'report id',
    "the body's keys",
    "documented by the shop's schema",
    'times',
  ]
  out.push('', `## Server errors (${block.answers})`, '', cell(block.text), '')
  out.push('Each request the shop answered with a 5xx; report.html has each with a `curl` that repeats it.', '')
  out.push(`| ${head.join(' | ')} |`, '|---|---|---:|---|---|---|---|---:|')
  for (const e of block.entries.slice(0, MAX_ROWS)) {
    const request = [code(operationOf(e)), e.caller]
    const answer = [String(e.status), cell(clip(e.message, 100)), code(e.reportId)]
    out.push(`| ${[...request, ...answer, bodyKeysCell(e), documentedCell(e), String(e.count)].join(' | ')} |`)
  }
  if (block.entries.length > MAX_ROWS)
    out.push('', `… and ${block.entries.length - MAX_ROWS} more in report.json (serverErrors.entries).`)
}

function bodyKeysCell(e: ServerErrorEntry): string {
  if (e.bodyChars !== undefined) return `(${e.bodyChars} characters, not kept)`
  if (e.bodyKeys === undefined) return '—'
  if (e.bodyKeys.length === 0) return '(none)'
  const shown = e.bodyKeys.slice(0, 6).map(code).join(', ')
  return e.bodyKeys.length > 6 ? `${shown}, … (${e.bodyKeys.length})` : shown
}

function documentedCell(e: ServerErrorEntry): string {
  if (e.schemaDocumentsBody === undefined) return '—'
  return e.schemaDocumentsBody ? 'yes' : 'no'
}

function code(text: string | undefined): string {
  return text === undefined ? '—' : `\`${cell(text)}\``
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

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}

function cell(text: string): string {
  return oneLine(text).replace(/\|/g, '\\|').replace(/`/g, "'")
}

/** A passive report's coverage: which endpoints the traffic touched, how many exchanges, which callers (docs/passive.md). */
function coverageSection(out: string[], report: Report): void {
  const p = report.passive
  if (p === undefined) return
  out.push(
    '',
    `## Coverage (passive)`,
    '',
    `${p.text}.`,
    '',
    '| endpoint | access | exchanges | callers | stores |',
    '|---|---|---:|---|---|',
  )
  for (const e of p.endpoints.slice(0, MAX_ROWS * 4)) {
    const callers = Object.entries(e.callers)
      .map(([k, n]) => `${k} ×${n}`)
      .join(', ')
    out.push(`| \`${cell(e.endpoint)}\` | ${e.access} | ${e.exchanges} | ${callers} | ${cell(e.stores.join(', '))} |`)
  }
  if (p.endpoints.length > MAX_ROWS * 4)
    out.push('', `… and ${p.endpoints.length - MAX_ROWS * 4} more endpoints: report.json \`passive.endpoints\`.`)
}

/** The line of counts under the title: the share of the suite, or what a passive report's traffic showed. */
function countsLine(c: Report['certification']): string {
  if (c.verdict === 'not run') return 'No required check was judged.'
  if (c.verdict === PASSIVE)
    return `From the traffic: ${c.passed} passed, ${c.failed} failed; ${c.notJudged} not observed.`
  return `${percentText(c)} of ${c.required} required checks passed.`
}
