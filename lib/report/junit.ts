import type { Report } from './model.ts'

/** junit.xml: one testsuite per module, one testcase per endpoint × check. */
export function junitXml(report: Report): string {
  const byModule = new Map<string, Report['results']>()
  for (const r of report.results) byModule.set(r.module, [...(byModule.get(r.module) ?? []), r])
  const suites = [...byModule].map(([module, results]) => {
    const cases = results.map((r) => {
      const head = `    <testcase classname="${escAttr(`shop-conformance.${module}`)}" name="${escAttr(r.id)}" time="${(r.durationMs / 1000).toFixed(3)}"`
      if (r.status === 'passed') return `${head}/>`
      if (r.status === 'skipped') return `${head}>\n      <skipped message="${escAttr(r.message)}"/>\n    </testcase>`
      return `${head}>\n      <failure message="${escAttr(r.message)}" type="${escAttr(r.check)}">${esc(`${r.message}\nSpec: ${r.spec.join('; ')}`)}</failure>\n    </testcase>`
    })
    const count = (s: string) => results.filter((r) => r.status === s).length
    const time = results.reduce((t, r) => t + r.durationMs, 0) / 1000
    return `  <testsuite name="${escAttr(module)}" tests="${results.length}" failures="${count('failed')}" errors="0" skipped="${count('skipped')}" time="${time.toFixed(3)}">\n${cases.join('\n')}\n  </testsuite>`
  })
  const s = report.summary
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="shop-conformance" tests="${s.total}" failures="${s.failed}" errors="0" skipped="${s.skipped}" time="${(report.durationMs / 1000).toFixed(3)}">\n${suites.join('\n')}\n</testsuites>\n`
}

function esc(text: string): string {
  // XML 1.0 cannot carry most control characters, U+FFFE/U+FFFF or lone surrogates even escaped; a target's
  // bytes must not break the file. A carriage return is written as a reference, or parsers turn it into \n.
  return text
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/\r/g, '&#13;')
}

/** In an attribute, literal line breaks and tabs would read back as spaces (attribute-value normalisation). */
function escAttr(text: string): string {
  return esc(text).replace(/\n/g, '&#10;').replace(/\t/g, '&#9;')
}
