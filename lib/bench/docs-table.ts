/**
 * The bench's tables in docs/performance.md, generated rather than pasted: `npm run bench -- --write-docs` writes
 * the table of the configurations it measured between the markers that name them, with the notes that say what the
 * columns are and what the figures were measured on (docs-table.test.ts fails on a table the bench would not write).
 * A block is keyed by its configurations, so measuring the busy shop alone never overwrites the default table.
 */
import { execFileSync } from 'node:child_process'
import { defined } from '../base/defined.ts'
import type { ConfigurationResult, Machine } from './figures.ts'
import { tableCells, tableNotes } from './table.ts'

/** What reports/bench.json holds: the measurements, and where and when they were made. */
export interface BenchRecord {
  machine: Machine
  runsPerConfiguration: number
  warmupRunsPerConfiguration: number
  configurations: ConfigurationResult[]
  /** The commit measured (`abc1234`, `abc1234 with uncommitted changes`); absent in records older than the field. */
  commit?: string
  /** The day of the measurement (YYYY-MM-DD). */
  date?: string
}

/** Where the tables are written, from the project's root. */
export const DOCS_FILE = 'docs/performance.md'

const marker = (names: readonly string[], end: boolean) =>
  `<!-- ${end ? 'end of ' : ''}bench table ${names.join(' ')}: written by npm run bench -- --write-docs -->`
const MARKER = /<!-- bench table ([a-z0-9 -]+?): written by npm run bench -- --write-docs -->/g

/** A cell is one line; a `|` inside one would end it. */
const cell = (text: string) => text.replace(/\|/g, '\\|')

/** The bench's table in Markdown: the same cells as the printed one, figures right-aligned. */
export function markdownTable(results: readonly ConfigurationResult[]): string {
  const { header, rows } = tableCells(results)
  const line = (cells: readonly string[]) => `| ${cells.map(cell).join(' | ')} |`
  return [line(header), `|${header.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`, ...rows.map(line)].join('\n')
}

/** The commit the bench measures, or undefined outside a git checkout. */
export function measuredCommit(root: string): string | undefined {
  try {
    const sha = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim()
    const dirty =
      execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: root, encoding: 'utf8' }).trim() !==
      ''
    return dirty ? `${sha} with uncommitted changes` : sha
  } catch {
    return undefined
  }
}

/** What goes between a block's markers: the table, what its columns mean, and what it was measured on. */
export function benchBlock(record: BenchRecord): string {
  const m = record.machine
  const measured = `Measured${record.commit !== undefined ? ` at ${record.commit}` : ''}${record.date !== undefined ? ` on ${record.date}` : ''}: ${m.cpus} × ${m.model}, ${m.os}, Node ${m.node.replace(/^v/, '')}.`
  const notes = tableNotes(record.runsPerConfiguration, record.warmupRunsPerConfiguration, m, record.configurations)
    .trim()
    .split('\n')
  return [markdownTable(record.configurations), '', measured, ...notes.flatMap((n) => ['', n])].join('\n')
}

/** The configurations of each bench block of a document, in its order. */
export function blocksOf(doc: string): string[][] {
  return [...doc.matchAll(MARKER)].map((m) => defined(m[1], "the bench marker's configuration group").split(' '))
}

/**
 * The document with the block of the record's configurations written anew; refused when the document has no such block.
 */
export function withBenchBlock(doc: string, record: BenchRecord): string {
  const names = record.configurations.map((c) => c.name)
  const start = doc.indexOf(marker(names, false))
  const end = doc.indexOf(marker(names, true))
  if (start < 0 || end < start) {
    const there = blocksOf(doc).map((b) => b.join(' '))
    const tables = there.length > 0 ? ` (its tables: ${there.join('; ')})` : ''
    throw new Error(
      `${DOCS_FILE} has no table of ${names.join(' ')}${tables}: ` +
        `measure the configurations of one of its tables, or add the markers ${marker(names, false)} … ${marker(names, true)}`,
    )
  }
  return `${doc.slice(0, start)}${marker(names, false)}\n${benchBlock(record)}\n${doc.slice(end)}`
}
