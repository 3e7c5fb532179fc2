import type { Report } from './model.ts'

/** The readable summary printed at the end of a run (also the heart of summary.md). */
export function terminalSummary(report: Report, reportDir: string): string {
  const s = report.summary
  const lines = [
    `shop-conformance ${report.suite.version} · spec ${report.spec.version} · target ${report.target.baseUrl}${report.target.bundledReferenceTarget ? ' (bundled reference target)' : ''} · store ${report.target.storeCode}${report.target.tlsVerification !== undefined ? ' · TLS certificates NOT verified' : ''}`,
    `${s.endpointsChecked} of ${s.endpointsInCatalog} catalog endpoints · ${s.total} checks: ${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped${s.notApplicable > 0 ? ` (${s.notApplicable} not shown by the spec)` : ''}${s.warnings > 0 ? `, ${s.warnings} warnings` : ''} · ${(report.durationMs / 1000).toFixed(1)} s`,
  ]
  const failures = report.results.filter((r) => r.status === 'failed')
  if (failures.length > 0) {
    lines.push('', 'Failures:')
    for (const r of failures.slice(0, 50)) lines.push(`  ✗ ${r.id} — ${r.message}`)
    if (failures.length > 50) lines.push(`  … and ${failures.length - 50} more in the report`)
  }
  for (const e of report.runErrors) lines.push(`Run error: ${e}`)
  for (const n of report.notes ?? []) lines.push(`Note: ${n}`)
  lines.push('', `Report: ${reportDir}/report.json (also report.html, junit.xml, report.sarif, summary.md, badge.svg)`)
  return `${lines.join('\n')}\n`
}

export function markdownSummary(report: Report): string {
  const s = report.summary
  const out = [
    `# Shop conformance: ${s.failed === 0 && report.runErrors.length === 0 ? 'no failures' : `${s.failed} failed`}`,
    '',
    `Target \`${report.target.baseUrl}\`, store \`${report.target.storeCode}\`; spec ${report.spec.version}; suite ${report.suite.version}; run ${report.run.id}.`,
    '',
    '| passed | failed | skipped | warnings | checks | endpoints |',
    '|---:|---:|---:|---:|---:|---:|',
    `| ${s.passed} | ${s.failed} | ${s.skipped} | ${s.warnings} | ${s.total} | ${s.endpointsChecked} / ${s.endpointsInCatalog} |`,
  ]
  const failures = report.results.filter((r) => r.status === 'failed')
  if (failures.length > 0) {
    out.push('', '## Failures', '', '| endpoint | check | message | spec |', '|---|---|---|---|')
    for (const r of failures) {
      out.push(`| \`${r.endpoint.method} ${r.endpoint.path}\` | ${r.check} | ${escapeCell(r.message)} | ${escapeCell(r.spec.join('; '))} |`)
    }
  }
  return `${out.join('\n')}\n`
}

function escapeCell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ')
}
