import { mkdir, rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Redactor } from '../results/redactor.ts'
import { badgeSvg } from './badge.ts'
import { reportHtml } from './html.ts'
import { junitXml } from './junit.ts'
import type { Report } from './model.ts'
import { sarifLog } from './sarif.ts'
import { reportDigest } from './sign.ts'
import { markdownSummary } from './summary-md.ts'

export const REPORT_FILES = ['report.json', 'report.html', 'junit.xml', 'summary.md', 'badge.svg', 'report.sarif'] as const

/**
 * Writes every format from one redacted copy of the report. Each file is redacted once more as text and
 * written whole or not at all (temp file, then rename), so a reader never sees half a report.
 */
export async function writeReports(dir: string, report: Report, secrets: Redactor): Promise<Report> {
  // Redacted twice over (deep, then as text): the digest is of exactly what report.json will hold.
  const clean = JSON.parse(secrets.redactText(JSON.stringify(secrets.redact(report)))) as Report
  clean.signature = { digest: reportDigest(clean) }
  await mkdir(dir, { recursive: true })
  const rendered: Record<(typeof REPORT_FILES)[number], string> = {
    'report.json': `${JSON.stringify(clean, null, 2)}\n`,
    'report.html': reportHtml(clean),
    'junit.xml': junitXml(clean),
    'summary.md': markdownSummary(clean),
    'report.sarif': `${JSON.stringify(sarifLog(clean), null, 2)}\n`,
    'badge.svg': badgeSvg(clean),
  }
  for (const [name, text] of Object.entries(rendered)) {
    const path = join(dir, name)
    await writeFile(`${path}.tmp`, secrets.redactText(text))
    await rename(`${path}.tmp`, path)
  }
  return clean
}
