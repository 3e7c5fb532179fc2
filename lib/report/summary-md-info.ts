/** summary.md's sections of information, never the verdict: coverage, the shop's schema, server errors. */
import { clip } from '../base/text.ts'
import { operationOf, type ServerErrorEntry } from '../results/server-errors.ts'
import type { Report } from './model.ts'

/** Rows of a table listed in summary.md; the rest are counted and left to report.json or report.html. */
export const MAX_ROWS = 30

/**
 * A passive report's coverage: which endpoints the traffic touched, how many exchanges, which callers
 * (docs/passive.md).
 */
export function coverageSection(out: string[], report: Report): void {
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

/** The shop's schema and the checks from outside the spec: sections of their own, never the verdict above. */
export function schemaSection(out: string[], report: Report): void {
  const { schema, extensions } = report
  if (extensions !== undefined) out.push('', '## Extensions', '', `${cell(extensions.text)}.`)
  if (schema === undefined) return
  out.push('', "## The shop's schema", '', cell(schema.text))
  for (const n of [...schema.notes, ...schema.notJudged.map((j) => `${j.kind} not judged: ${j.reason}`)])
    out.push(`- ${cell(n)}`)
  if (schema.findings.length === 0) return
  out.push('', '| operation | finding | the schema declares | the spec says |', '|---|---|---|---|')
  for (const f of schema.findings.slice(0, MAX_ROWS)) {
    const field = f.field !== undefined ? ` (\`${cell(f.field)}\`)` : ''
    out.push(
      `| \`${cell(f.operation)}\` | ${cell(f.kind)}${field} | ${cell(f.declared)} | ${cell(f.spec)} (${cell(f.section)}) |`,
    )
  }
  if (schema.findings.length > MAX_ROWS)
    out.push('', `… and ${schema.findings.length - MAX_ROWS} more in report.json (schema.findings).`)
}

/** Every server error the run met, each request once: a section of its own, never the verdict above. */
export function serverErrorsSection(out: string[], report: Report): void {
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

/** Text on one line: every run of white space one space. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}

/** Text fit for a Markdown table's cell: one line, its pipes escaped, its backticks quotes. */
export function cell(text: string): string {
  return oneLine(text).replace(/\|/g, '\\|').replace(/`/g, "'")
}
