import { plural } from '../base/text.ts'
import { baselineSummary } from './baseline.ts'
import { headline } from './certify.ts'
import type { Report } from './model.ts'
import { leftoversText, runStory } from './outcome.ts'
import { ERRORS_WHOSE, failuresOf, notJudgedTally } from './tallies.ts'
import { targetText } from './target.ts'
import { deadlinesText } from '../results/deadlines.ts'

/** The deadlines the run used, as the console says them (absent in a report that does not record them). */
function deadlinesLine(report: Pick<Report, 'run'>): string | undefined {
  const { deadlines, maxTimeoutMs } = report.run
  if (deadlines === undefined) return undefined
  return `Deadlines used: ${deadlinesText(deadlines)} (at least --timeout-ms ${report.run.timeoutMs}${maxTimeoutMs !== undefined ? `, at most --max-timeout-ms ${maxTimeoutMs}` : ''})`
}

/** The readable summary printed at the end of a run: what it covered, its verdict, and why it exits so. */
export function terminalSummary(report: Report, reportDir: string): string {
  const s = report.summary
  const c = report.certification
  const notJudged = notJudgedTally(report)
  const lines = [
    `shop-conformance ${report.suite.version} · spec ${report.spec.version} · target ${targetText(report.target)} · store ${report.target.storeCode}${report.target.tlsVerification !== undefined ? ' · TLS certificates NOT verified' : ''}${report.run.readOnly ? ' · read-only' : ''}`,
    `${s.endpointsChecked} of ${s.endpointsInCatalog} catalog endpoints · ${s.total} results: ${s.passed} passed, ${s.failed} failed${c.baselined > 0 ? ` (${c.baselined} baselined)` : ''}${s.errors !== undefined && s.errors > 0 ? `, ${plural(s.errors, 'error')}` : ''}, ${c.notJudged} not judged, ${s.notApplicable} not applicable${s.warnings > 0 ? `, ${s.warnings} warnings` : ''} · ${(report.durationMs / 1000).toFixed(1)} s`,
  ]
  if (notJudged.length > 0) lines.push(`Not judged: ${notJudged.map((t) => `${t.count} ${t.label}`).join(', ')}`)
  for (const n of c.notConfigured) lines.push(`Not configured: ${n.text}`)
  const deadlines = deadlinesLine(report)
  if (deadlines !== undefined) lines.push(deadlines)
  const excused = new Set(report.baseline?.baselinedFailures ?? [])
  const { spec, extension } = failuresOf(report)
  for (const [title, failures] of [
    [`Failures (${spec.length}):`, spec],
    [`Extension check failures (${extension.length}, not the spec's):`, extension],
  ] as const) {
    if (failures.length === 0) continue
    lines.push('', title)
    for (const r of failures.slice(0, 50))
      lines.push(
        `  ✗ ${r.id}${r.extension === true ? ` [${r.origin}]` : ''}${excused.has(r.id) ? ' [baselined]' : ''} — ${r.message}`,
      )
    if (failures.length > 50) lines.push(`  … and ${failures.length - 50} more in the report`)
  }
  const errors = report.results.filter((r) => r.status === 'error')
  if (errors.length > 0) {
    lines.push('', `Errors (${ERRORS_WHOSE}):`)
    for (const r of errors.slice(0, 50))
      lines.push(`  ! ${r.id}${r.extension === true ? ` [${r.origin}]` : ''} — ${r.message}`)
    if (errors.length > 50) lines.push(`  … and ${errors.length - 50} more in the report`)
  }
  if (report.schema !== undefined) lines.push(report.schema.text)
  const serverErrors = report.serverErrors
  if (serverErrors?.answers !== undefined && serverErrors.answers > 0) lines.push(serverErrors.text)
  if (report.extensions !== undefined) lines.push(report.extensions.text)
  for (const e of report.runErrors) lines.push(`Run error: ${e}`)
  for (const n of report.notes ?? []) lines.push(`Note: ${n}`)
  if (report.baseline !== undefined) lines.push(baselineSummary(report).trimEnd())
  const story = runStory(report)
  const left = leftoversText(report)
  lines.push(
    '',
    ...(story.kind === 'whole' ? [] : [`Run: ${story.text}`]),
    ...(left !== undefined ? [`Left on the shop: ${left}`] : []),
    `Verdict: ${headline(c)}`,
    `Exit ${report.exit.status}: ${report.exit.reason}`,
    `Report: ${reportDir}/report.json (also report.html, junit.xml, report.sarif, summary.md, badge.svg${report.evidence !== undefined ? `, ${report.evidence.file}` : ''})`,
  )
  return `${lines.join('\n')}\n`
}
