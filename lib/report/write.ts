import { mkdirSync, renameSync, writeFileSync } from 'node:fs'
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

export const REPORT_FILES = [
  'report.json',
  'report.html',
  'junit.xml',
  'summary.md',
  'badge.svg',
  'report.sarif',
] as const

/**
 * Writes every format from one redacted copy of the report. Each file is redacted once more as text and
 * written whole or not at all (temp file, then rename), so a reader never sees half a report. The files are
 * rendered one at a time, each written before the next is made: all six texts at once, twice over (as
 * rendered and as redacted), were some 30 MB of a run's peak memory.
 */
export async function writeReports(dir: string, report: Report, secrets: Redactor): Promise<Report> {
  const clean = redactedCopy(report, secrets)
  await mkdir(dir, { recursive: true })
  for (const [name, text] of rendered(clean, secrets)) {
    const path = join(dir, name)
    await writeFile(`${path}.tmp`, text)
    await rename(`${path}.tmp`, path)
  }
  return clean
}

/** The same, synchronously: for a process that is exiting (its 'exit' event runs nothing asynchronous). */
export function writeReportsSync(dir: string, report: Report, secrets: Redactor): Report {
  const clean = redactedCopy(report, secrets)
  mkdirSync(dir, { recursive: true })
  for (const [name, text] of rendered(clean, secrets)) {
    const path = join(dir, name)
    writeFileSync(`${path}.tmp`, text)
    renameSync(`${path}.tmp`, path)
  }
  return clean
}

/**
 * Redacted twice over (deep, then as text), and signed: the digest is of exactly what report.json will hold.
 * Both redactions act on one JSON text, parsed once: the deep copy's text is the same text as its parse
 * stringified again, and the copy in between was a whole report more held at once.
 */
function redactedCopy(report: Report, secrets: Redactor): Report {
  const clean = JSON.parse(secrets.redactText(secrets.redactedJson(report))) as Report
  clean.signature = { digest: reportDigest(clean) }
  return clean
}

const FORMATS: Record<(typeof REPORT_FILES)[number], (clean: Report) => string> = {
  'report.json': (clean) => `${JSON.stringify(clean, null, 2)}\n`,
  'report.html': reportHtml,
  'junit.xml': junitXml,
  'summary.md': markdownSummary,
  'report.sarif': (clean) => `${JSON.stringify(sarifLog(clean), null, 2)}\n`,
  'badge.svg': badgeSvg,
}

function* rendered(clean: Report, secrets: Redactor): Generator<[string, string]> {
  for (const [name, render] of Object.entries(FORMATS)) yield [name, secrets.redactText(render(clean))]
}
