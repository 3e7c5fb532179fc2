import { defined } from '../base/defined.ts'
import { UsageError } from '../base/usage-error.ts'
import { plural } from '../base/text.ts'
import type { Result } from '../results/result.ts'
import { catalogPosition } from '../spec/catalog/index.ts'
import { MODULES } from '../spec/modules.ts'
import { SPEC_VERSION, SUITE } from '../spec/version.ts'
import { headline, type ConformanceVerdict } from './certify.ts'
import { CELL_OUTCOMES, historyOf, type CellOutcome, type History } from './matrix-history.ts'
import type { Report } from './model.ts'
import { neverStarted, stopWords } from './outcome.ts'
import { outcomeLabel } from './tallies.ts'

/**
 * The conformance matrix (matrix.json, format `shop-conformance-matrix` version 1; its JSON Schema is
 * matrix.schema.json beside this file): one column per implementation (name and version; several reports of one
 * implementation are its history, the newest shown), one row per result id of the spec's checks, in module and
 * check order. A result a column's report does not have is "not run", never passed. The verdicts are each
 * report's own (its certification): the matrix judges nothing.
 */
export const MATRIX_FORMAT = 'shop-conformance-matrix'
export const MATRIX_VERSION = 1

interface Implementation {
  name: string
  version?: string
  /** Where the name comes from: the report (`--target-name`), `--as`, or neither (the report's base URL stands in). */
  from: 'report' | '--as' | 'base URL'
}

/** One report given to the matrix, with the identity `--as` gives it. */
export interface MatrixInput {
  report: Report
  file: string
  as?: { name: string; version?: string }
}

interface MatrixOptions {
  /** Take reports of a slice, a shard or a run cut short (their missing checks are "not run"). */
  allowPartial?: boolean
  /** Take reports of another spec version than this suite's. */
  allowSpecMismatch?: boolean
  /** The history of an earlier matrix, continued with these reports' runs. */
  history?: History
  /**
   * The earlier matrix itself (the matrix.json beside `--history`'s history.json): the column of each implementation
   * no report given is as new for is carried over as it was, so continuing a history keeps every implementation's
   * latest column. history.json holds only transitions, not what a column shows (its verdict, messages).
   */
  previous?: Matrix
  now?: Date
}

export interface MatrixColumn {
  /** `Platform 2.4.7-p7`: how every output names the column. */
  label: string
  implementation: Implementation
  /** The newest report of the implementation: what the column shows. */
  report: {
    file: string
    runId: string
    startedAt: string
    suiteVersion: string
    specVersion: string
    baseUrl: string
    readOnly: boolean
    scope: string
    whole: boolean
    partial?: string
    exit: { status: number; reason: string }
  }
  /** Reports of this implementation given (the newest shown; history.json holds every one's changes). */
  reports: number
  certification: {
    verdict: ConformanceVerdict
    percent: number
    required: number
    passed: number
    failed: number
    notJudged: number
    baselined: number
    headline: string
  }
  modules: { module: string; title: string; verdict: ConformanceVerdict; text: string }[]
  /** The column's cells by outcome, over the matrix's rows. */
  counts: Record<CellOutcome, number>
  /** Results from outside the spec (a shop's extension operations, a vendor's checks) in its report: never compared. */
  outsideTheSpec: number
}

interface MatrixCell {
  outcome: CellOutcome
  /** The failure is listed in the report's baseline: it still failed. */
  baselined?: true
  message?: string
}

export interface MatrixRow {
  id: string
  module: string
  check: string
  /** The row's name under its module and check: the endpoint, or the workflow's step. */
  label: string
  /** The columns do not all say the same. */
  differs: boolean
  cells: MatrixCell[]
}

export interface Matrix {
  format: typeof MATRIX_FORMAT
  version: typeof MATRIX_VERSION
  generatedAt: string
  suite: { name: string; version: string }
  spec: { version: string; otherVersions: string[] }
  scope: { text: string; rows: number; differing: number; notApplicableEverywhere: number; allowed: string[] }
  modules: { id: string; title: string }[]
  checks: string[]
  columns: MatrixColumn[]
  rows: MatrixRow[]
}

export interface Built {
  matrix: Matrix
  history: History
  /**
   * Each column's newest report (the evidence behind its cells), in column order; none for a column carried from the
   * earlier matrix.
   */
  shown: (Report | undefined)[]
  /**
   * The columns carried from the earlier matrix (`previous`), by index: their evidence is in their reports, not given.
   */
  carried: number[]
  /** Reports of a run given already for their implementation: taken once (`b.json is run X again (as a.json)`). */
  duplicates: string[]
}

const REFERENCE = 'bundled reference target'

/** The matrix and the history of `inputs`; a report the options do not allow is a UsageError naming it. */
export function buildMatrix(inputs: readonly MatrixInput[], options: MatrixOptions = {}): Built {
  if (inputs.length === 0) throw new UsageError('matrix: no reports given (matrix REPORT.json ... --out DIR)')
  for (const input of inputs) admit(input, options)
  const { groups, duplicates } = groupByImplementation(inputs)
  const sources = columnSources(groups, options.previous)
  const heads = rowHeads(sources)
  const modules = moduleList(heads, options.previous)
  const checks = checkOrder(
    sources.flatMap((s) => reportOfSource(s) ?? []),
    [...heads.values()],
    options.previous?.checks ?? [],
  )
  const { rows, notApplicableEverywhere } = matrixRows(orderedHeads(heads, modules, checks), sources)
  const columns = sources.map((s, c): MatrixColumn => {
    const cells = rows.map((row) => defined(row.cells[c], "a row's cell of each column"))
    if (s.kind === 'carried') return { ...s.column, counts: countsOf(cells) }
    return columnOf(s.group.implementation, newestInput(s.group), s.group.inputs.length, cells)
  })
  const otherVersions = [...new Set(columns.map((c) => c.report.specVersion).filter((v) => v !== SPEC_VERSION))]
  const differing = rows.filter((r) => r.differs).length
  const matrix: Matrix = {
    format: MATRIX_FORMAT,
    version: MATRIX_VERSION,
    generatedAt: (options.now ?? new Date()).toISOString(),
    suite: { ...SUITE },
    spec: { version: SPEC_VERSION, otherVersions },
    scope: {
      text: scopeText(columns, rows.length, differing, notApplicableEverywhere, otherVersions),
      rows: rows.length,
      differing,
      notApplicableEverywhere,
      allowed: allowedBy(inputs, sources, columns),
    },
    modules: modules.filter((m) => rows.some((r) => r.module === m.id)),
    checks: checks.filter((ch) => rows.some((r) => r.check === ch)),
    columns,
    rows,
  }
  const history = historyOf(
    groups.map((g) => ({ ...g.implementation, reports: g.inputs.map((i) => i.report) })),
    options.history,
  )
  const carried = sources.flatMap((s, c) => (s.kind === 'carried' ? [c] : []))
  return { matrix, history, shown: sources.map(reportOfSource), carried, duplicates }
}

/** The reports given, by implementation, each group oldest first; a run given again is taken once (`duplicates`). */
function groupByImplementation(inputs: readonly MatrixInput[]): { groups: Group[]; duplicates: string[] } {
  const byImplementation = new Map<string, Group>()
  const duplicates: string[] = []
  for (const input of inputs) {
    const implementation = implementationOf(input)
    const key = keyOf(implementation)
    const seen = byImplementation.get(key) ?? { implementation, inputs: [] }
    const same = seen.inputs.find((i) => i.report.run.id === input.report.run.id)
    if (same !== undefined) duplicates.push(`${input.file} is run ${input.report.run.id} again (as ${same.file})`)
    else byImplementation.set(key, { ...seen, inputs: [...seen.inputs, input] })
  }
  const groups = [...byImplementation.values()].map((g) => ({
    ...g,
    inputs: g.inputs.sort((a, b) => runOrder(a.report, b.report)),
  }))
  return { groups, duplicates }
}

/** The report a column shows: its implementation's newest given; none for a column carried over. */
function reportOfSource(s: ColumnSource): Report | undefined {
  return s.kind === 'report' ? newestInput(s.group).report : undefined
}

/** A report's results of the spec's checks: the extensions' are the shop's own, no row of the matrix. */
function specResults(r: Report): Result[] {
  return r.results.filter((x) => x.extension !== true)
}

/** Every row any column has, by id: the first column's head of it names it. */
function rowHeads(sources: readonly ColumnSource[]): Map<string, RowHead> {
  const heads = new Map<string, RowHead>()
  for (const s of sources) {
    const found =
      s.kind === 'report'
        ? specResults(newestInput(s.group).report).map(resultHead)
        : [...s.rows.values()].map(({ row }) => carriedHead(row))
    for (const head of found) if (!heads.has(head.id)) heads.set(head.id, head)
  }
  return heads
}

/** The spec's modules in order, then any other the rows name (titled as the earlier matrix did, or by its id). */
function moduleList(heads: ReadonlyMap<string, RowHead>, previous: Matrix | undefined): Matrix['modules'] {
  const modules = [...MODULES.map(({ id, title }) => ({ id, title }))]
  for (const r of heads.values()) {
    if (modules.some((m) => m.id === r.module)) continue
    modules.push({ id: r.module, title: previous?.modules.find((m) => m.id === r.module)?.title ?? r.module })
  }
  return modules
}

/** The rows in the matrix's order: by module, then check, then the endpoint's place in the catalog, then id. */
function orderedHeads(
  heads: ReadonlyMap<string, RowHead>,
  modules: Matrix['modules'],
  checks: readonly string[],
): RowHead[] {
  const placeOf = (r: RowHead) => [
    modules.findIndex((m) => m.id === r.module),
    checks.indexOf(r.check),
    r.position ?? Number.MAX_SAFE_INTEGER,
  ]
  const place = new Map([...heads.values()].map((r) => [r.id, placeOf(r)]))
  const placed = (r: RowHead) => defined(place.get(r.id), 'the place of a row head')
  return [...heads.values()].sort((a, b) => compare(placed(a), placed(b)) || a.id.localeCompare(b.id))
}

/** Each row's cells, a column's each; a row no column applies to (or ran) is only counted. */
function matrixRows(
  ordered: readonly RowHead[],
  sources: readonly ColumnSource[],
): { rows: MatrixRow[]; notApplicableEverywhere: number } {
  const results = sources.map((s) => {
    const report = reportOfSource(s)
    return report !== undefined ? new Map(specResults(report).map((r) => [r.id, r])) : undefined
  })
  let notApplicableEverywhere = 0
  const rows: MatrixRow[] = []
  for (const r of ordered) {
    const cells = sources.map((s, c) => {
      if (s.kind === 'report')
        return cellOf(defined(results[c], 'the results of a report column').get(r.id), newestInput(s.group).report)
      return s.rows.get(r.id)?.cell ?? leftOut(s.column)
    })
    if (cells.every((cell) => cell.outcome === 'not applicable' || cell.outcome === 'not run')) {
      notApplicableEverywhere++
      continue
    }
    rows.push({
      id: r.id,
      module: r.module,
      check: r.check,
      label: r.label,
      differs: new Set(cells.map((cell) => cell.outcome)).size > 1,
      cells,
    })
  }
  return { rows, notApplicableEverywhere }
}

/**
 * The options the matrix needed: `--allow-partial` for a partial report (a column's or an older report's: its runs
 * are in the history, a carried column's too), `--allow-spec-mismatch` for one of another spec version.
 */
function allowedBy(
  inputs: readonly MatrixInput[],
  sources: readonly ColumnSource[],
  columns: readonly MatrixColumn[],
): string[] {
  const carriedColumns = columns.filter((_, c) => defined(sources[c], 'the source of a column').kind === 'carried')
  const partialInput = inputs.some((i) => !i.report.certification.scope.whole || i.report.partial !== undefined)
  const partial = partialInput || carriedColumns.some((c) => !c.report.whole || c.report.partial !== undefined)
  const mismatch =
    inputs.some((i) => i.report.spec.version !== SPEC_VERSION) ||
    carriedColumns.some((c) => c.report.specVersion !== SPEC_VERSION)
  return [...(partial ? ['--allow-partial'] : []), ...(mismatch ? ['--allow-spec-mismatch'] : [])]
}

/** A row as the matrix places and names it, from a report's result or an earlier matrix's row. */
interface RowHead {
  id: string
  module: string
  check: string
  label: string
  /** The endpoint's place in the catalog (none: a workflow step, an endpoint of no catalog row). */
  position: number | undefined
}

/** An implementation's reports given, oldest first: a group is made with its first report, so it has one. */
interface Group {
  implementation: Implementation
  inputs: MatrixInput[]
}

function newestInput(group: Group): MatrixInput {
  return defined(group.inputs.at(-1), "the newest report of an implementation's group")
}

/**
 * What a column is made of: an implementation's reports given, or its column in the earlier matrix, carried over
 * (a cell the earlier matrix lacks is left out, as a row it did not have).
 */
type ColumnSource =
  | { kind: 'report'; group: Group }
  | { kind: 'carried'; column: MatrixColumn; rows: Map<string, { row: MatrixRow; cell: MatrixCell | undefined }> }

/**
 * The columns in order: the earlier matrix's first (a CI's page keeps its order), each from the reports given for
 * its implementation unless its own run is newer, then the implementations it did not have.
 */
function columnSources(groups: readonly Group[], previous: Matrix | undefined): ColumnSource[] {
  const sources: ColumnSource[] = []
  const used = new Set<string>()
  const previousRows = previous?.rows ?? []
  for (const [c, column] of (previous?.columns ?? []).entries()) {
    const key = keyOf(column.implementation)
    const group = groups.find((g) => keyOf(g.implementation) === key)
    used.add(key)
    const shownBefore = { startedAt: column.report.startedAt, run: { id: column.report.runId } }
    if (group !== undefined && runOrder(newestInput(group).report, shownBefore) >= 0) {
      sources.push({ kind: 'report', group })
      continue
    }
    const rows = new Map(previousRows.map((row) => [row.id, { row, cell: row.cells[c] }]))
    sources.push({ kind: 'carried', column, rows })
  }
  for (const group of groups) if (!used.has(keyOf(group.implementation))) sources.push({ kind: 'report', group })
  return sources
}

/**
 * An earlier matrix's row as a row head: its endpoint read back from its label (`METHOD /V1/path`), a workflow step's
 * from none.
 */
function carriedHead(row: MatrixRow): RowHead {
  const endpoint = row.check === 'workflow' ? null : /^([A-Z]+) (\/\S+)$/.exec(row.label)
  const position =
    endpoint !== null
      ? catalogPosition({
          method: defined(endpoint[1], "the method group of a row's label"),
          path: defined(endpoint[2], "the path group of a row's label"),
        })
      : undefined
  return { id: row.id, module: row.module, check: row.check, label: row.label, position }
}

function resultHead(r: Result): RowHead {
  return { id: r.id, module: r.module, check: r.check, label: labelOf(r), position: catalogPosition(r.endpoint) }
}

/**
 * A carried column's cell of a row the earlier matrix left out (it applied in none of its columns): not applicable
 * where the column's run was a whole one of this suite version (it had every result of the plan), else not run.
 */
function leftOut(column: MatrixColumn): MatrixCell {
  const { whole, partial, suiteVersion } = column.report
  return { outcome: whole && partial === undefined && suiteVersion === SUITE.version ? 'not applicable' : 'not run' }
}

function countsOf(cells: readonly MatrixCell[]): Record<CellOutcome, number> {
  return Object.fromEntries(CELL_OUTCOMES.map((o) => [o, cells.filter((cell) => cell.outcome === o).length])) as Record<
    CellOutcome,
    number
  >
}

/** Refuses what cannot be set beside the others unless the options allow it, naming the report and the flag. */
function admit({ report, file }: MatrixInput, options: MatrixOptions): void {
  if (typeof report.certification !== 'object' || report.certification === null)
    throw new UsageError(
      `matrix: ${file} has no certification statement (written by an older shop-conformance): run it again`,
    )
  if (report.partial === undefined) {
    const never = neverStarted(report)
    if (never !== undefined) throw new UsageError(`matrix: ${file}: ${never}; it judged nothing to compare`)
  }
  if (report.spec.version !== SPEC_VERSION && options.allowSpecMismatch !== true) {
    throw new UsageError(
      `matrix: ${file} is of spec ${report.spec.version}, this suite's rules are of spec ${SPEC_VERSION}: pass --allow-spec-mismatch to set them side by side anyway`,
    )
  }
  if (options.allowPartial === true) return
  if (!report.certification.scope.whole)
    throw new UsageError(
      `matrix: ${file} is ${report.certification.scope.text}: what it did not select would show as not run; pass --allow-partial to compare it anyway`,
    )
  if (report.partial !== undefined)
    throw new UsageError(
      `matrix: ${file} is of a run cut short by ${stopWords(report.partial.reason)}: what it did not reach would show as not run; pass --allow-partial to compare it anyway`,
    )
}

function implementationOf({ report, as }: MatrixInput): Implementation {
  if (as !== undefined)
    return { name: as.name, ...(as.version !== undefined ? { version: as.version } : {}), from: '--as' }
  const { name, version, baseUrl, bundledReferenceTarget } = report.target
  if (name !== undefined) return { name, ...(version !== undefined ? { version } : {}), from: 'report' }
  return {
    name: bundledReferenceTarget ? REFERENCE : baseUrl,
    ...(version !== undefined ? { version } : {}),
    from: 'base URL',
  }
}

/** `Platform 2.4.7-p7`, or the name alone. */
function implementationLabel(i: Pick<Implementation, 'name' | 'version'>): string {
  return i.version !== undefined ? `${i.name} ${i.version}` : i.name
}

function keyOf(i: Pick<Implementation, 'name' | 'version'>): string {
  return JSON.stringify([i.name, i.version ?? null])
}

/** Oldest first: by start, then run id (two reports of one run are one). */
function runOrder(
  a: { startedAt: string; run: { id: string } },
  b: { startedAt: string; run: { id: string } },
): number {
  return Date.parse(a.startedAt) - Date.parse(b.startedAt) || a.run.id.localeCompare(b.run.id)
}

function cellOf(r: Result | undefined, report: Report): MatrixCell {
  if (r === undefined) return { outcome: 'not run' }
  const baselined = r.status === 'failed' && (report.baseline?.baselinedFailures.includes(r.id) ?? false)
  return { outcome: outcomeLabel(r), ...(baselined ? { baselined: true as const } : {}), message: r.message }
}

function columnOf(
  implementation: Implementation,
  input: MatrixInput,
  reports: number,
  cells: readonly MatrixCell[],
): MatrixColumn {
  const { report, file } = input
  const c = report.certification
  const counts = countsOf(cells)
  return {
    label: implementationLabel(implementation),
    implementation,
    report: {
      file,
      runId: report.run.id,
      startedAt: report.startedAt,
      suiteVersion: report.suite.version,
      specVersion: report.spec.version,
      baseUrl: report.target.baseUrl,
      readOnly: report.run.readOnly,
      scope: c.scope.text,
      whole: c.scope.whole,
      ...(report.partial !== undefined ? { partial: `cut short by ${stopWords(report.partial.reason)}` } : {}),
      exit: { status: report.exit.status, reason: report.exit.reason },
    },
    reports,
    certification: {
      verdict: c.verdict,
      percent: c.percent,
      required: c.required,
      passed: c.passed,
      failed: c.failed,
      notJudged: c.notJudged,
      baselined: c.baselined,
      headline: headline(c),
    },
    modules: c.modules.map((m) => ({ module: m.module, title: m.title, verdict: m.verdict, text: m.text })),
    counts,
    outsideTheSpec: report.results.filter((r) => r.extension === true).length,
  }
}

/**
 * The check kinds in the order the reports' plans list them (the newest suite's first), then the earlier matrix's,
 * any other after, workflows last.
 */
function checkOrder(
  reports: readonly Report[],
  results: readonly Pick<Result, 'check'>[],
  previous: readonly string[],
): string[] {
  const newestFirst = [...reports].sort((a, b) => runOrder(b, a))
  const named = newestFirst.flatMap((r) => (r.plan?.kinds ?? []).map((k) => k.name))
  const all = [...new Set([...named, ...previous, ...results.map((r) => r.check).sort()])]
  return [...all.filter((c) => c !== 'workflow'), ...all.filter((c) => c === 'workflow')]
}

function labelOf(r: Result): string {
  const suffix = ` › ${r.check}`
  if (r.check === 'workflow') return r.id.replace(/^workflow /, '')
  return r.id.endsWith(suffix) ? r.id.slice(0, -suffix.length) : r.id
}

/** Two places (as long as each other), in order of their first differing number. */
function compare(a: readonly number[], b: readonly number[]): number {
  for (const [i, x] of a.entries()) {
    const y = defined(b[i], 'a number of a place as long as the other')
    if (x !== y) return x - y
  }
  return 0
}

/** What the matrix covers, in the same words in every output (the command's line, matrix.json, matrix.html). */
function scopeText(
  columns: readonly MatrixColumn[],
  rows: number,
  differing: number,
  notApplicableEverywhere: number,
  otherVersions: readonly string[],
): string {
  const partial = columns
    .filter((c) => !c.report.whole || c.report.partial !== undefined)
    .map((c) => `${c.label} (${c.report.partial ?? c.report.scope})`)
  const outside = columns.filter((c) => c.outsideTheSpec > 0).map((c) => `${c.label} ${c.outsideTheSpec}`)
  return [
    `${plural(columns.length, 'implementation')} × ${plural(rows, 'result')} of the spec's checks, ${differing} where they differ`,
    notApplicableEverywhere > 0 ? `${notApplicableEverywhere} that apply in no column left out` : '',
    partial.length > 0 ? `partial: ${partial.join(', ')}` : '',
    otherVersions.length > 0 ? `reports of spec ${otherVersions.join(', ')} beside this suite's ${SPEC_VERSION}` : '',
    outside.length > 0 ? `results from outside the spec not compared (${outside.join(', ')})` : '',
  ]
    .filter((t) => t !== '')
    .join('; ')
}
