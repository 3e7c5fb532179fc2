import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { defined } from '../base/defined.ts'
import { ensureWritableDir } from '../base/output-dir.ts'
import { plural } from '../base/text.ts'
import { UsageError } from '../base/usage-error.ts'
import { buildMatrix, type Matrix, type MatrixInput } from '../report/matrix.ts'
import { transitionCount, type History } from '../report/matrix-history.ts'
import { matrixHtml } from '../report/matrix-html.ts'
import { historyProblems, matrixProblems } from '../report/matrix-schema.ts'
import { labelSetting } from '../settings/setting-values.ts'
import { args, readJson, reportPath, required, runReport, writeWhole, type CommandIo } from './command-io.ts'

export const MATRIX_FILES = ['matrix.json', 'history.json', 'matrix.html'] as const

/**
 * `matrix REPORT ... --out DIR [--as REPORT=NAME[@VERSION] ...] [--history FILE] [--allow-partial]
 * [--allow-spec-mismatch]`: the conformance matrix of the reports (lib/report/matrix.ts) in DIR — matrix.json,
 * history.json and matrix.html. What it wrote is read back and checked against the formats' schemas before it
 * says so. Exit 0; unusable input is one line, exit 2.
 */
export async function matrixCommand(argv: string[], io: CommandIo): Promise<number> {
  const { values, positionals } = args(
    'matrix',
    argv,
    {
      out: { type: 'string' },
      as: { type: 'string', multiple: true },
      history: { type: 'string' },
      'allow-partial': { type: 'boolean' },
      'allow-spec-mismatch': { type: 'boolean' },
    },
    true,
  )
  const out = required('matrix', values.out, '--out DIR')
  if (positionals.length === 0) throw new UsageError('matrix: no reports given (matrix REPORT.json ... --out DIR)')
  const names = identities(values.as ?? [], positionals)
  const inputs: MatrixInput[] = positionals.map((p) => {
    const as = names.get(resolve(reportPath(p)))
    return { report: runReport('matrix', p), file: reportPath(p), ...(as !== undefined ? { as } : {}) }
  })
  const previous = values.history !== undefined ? readHistory(values.history) : undefined
  // The earlier matrix beside its history: its columns of implementations not given again are kept.
  const previousMatrixFile = values.history !== undefined ? join(dirname(values.history), 'matrix.json') : undefined
  const previousMatrix = previousMatrixFile !== undefined ? readPreviousMatrix(previousMatrixFile) : undefined
  if (previousMatrixFile !== undefined && previousMatrix === undefined) {
    io.err(
      `matrix: no matrix.json beside ${values.history}: the columns are the implementations of the reports given only\n`,
    )
  }
  const built = buildMatrix(inputs, {
    allowPartial: values['allow-partial'] === true,
    allowSpecMismatch: values['allow-spec-mismatch'] === true,
    ...(previous !== undefined ? { history: previous } : {}),
    ...(previousMatrix !== undefined ? { previous: previousMatrix } : {}),
  })
  ensureWritableDir(out, 'matrix: --out')
  const texts: Record<(typeof MATRIX_FILES)[number], string> = {
    'matrix.json': `${JSON.stringify(built.matrix, null, 2)}\n`,
    'history.json': `${JSON.stringify(built.history, null, 2)}\n`,
    'matrix.html': matrixHtml(built),
  }
  for (const name of MATRIX_FILES) await writeWhole(join(out, name), texts[name], 'matrix:')
  // What a reader of the formats gets is what their schemas say: checked on the files as written.
  for (const [name, check] of [
    ['matrix.json', matrixProblems],
    ['history.json', historyProblems],
  ] as const) {
    const problems = check(JSON.parse(readFileSync(join(out, name), 'utf8')))
    if (problems.length > 0) throw new Error(`${join(out, name)} does not match its schema: ${problems.join('; ')}`)
  }

  const { matrix, history } = built
  const runs = history.implementations.reduce((n, h) => n + h.runs.length, 0)
  const added = transitionCount(history) - (previous !== undefined ? transitionCount(previous) : 0)
  const lines = [
    `matrix ${join(out, 'matrix.html')} (also matrix.json, history.json): ${matrix.scope.text}`,
    ...matrix.columns.map((c, i) => {
      let from = ''
      if (built.carried.includes(i)) from = `; carried from ${previousMatrixFile}`
      else if (c.reports > 1) from = `; newest of ${c.reports} reports`
      return `  ${c.label}: ${c.certification.headline} (${c.report.file}, run ${c.report.runId}, ${c.report.startedAt}${from})`
    }),
    `history ${join(out, 'history.json')}: ${plural(runs, 'run')} of ${plural(history.implementations.length, 'implementation')}, ${plural(transitionCount(history), 'transition')}${previous !== undefined ? ` (${added} added to ${values.history})` : ''}`,
  ]
  for (const d of built.duplicates) io.err(`matrix: ${d}: taken once\n`)
  io.out(`${lines.join('\n')}\n`)
  return 0
}

/** `--as REPORT=NAME[@VERSION]`, by the report's resolved path: REPORT must be one of the reports given. */
function identities(
  values: readonly string[],
  positionals: readonly string[],
): Map<string, { name: string; version?: string }> {
  const out = new Map<string, { name: string; version?: string }>()
  for (const value of values) {
    const report = positionals.find((p) => value.startsWith(`${p}=`))
    if (report === undefined)
      throw new UsageError(
        `matrix: --as ${value}: REPORT=NAME[@VERSION], REPORT one of the reports given (${positionals.join(', ')})`,
      )
    const identity = value.slice(report.length + 1)
    const at = identity.lastIndexOf('@')
    const name = defined(
      labelSetting('matrix: --as NAME', at > 0 ? identity.slice(0, at) : identity),
      'the label of a given name',
    )
    const version = at > 0 ? labelSetting('matrix: --as VERSION', identity.slice(at + 1)) : undefined
    out.set(resolve(reportPath(report)), { name, ...(version !== undefined ? { version } : {}) })
  }
  return out
}

/** The matrix.json beside an earlier matrix's history.json, checked against its schema; none when it is not there. */
function readPreviousMatrix(file: string): Matrix | undefined {
  if (!existsSync(file)) return undefined
  const data = readJson(file, 'matrix: --history')
  const problems = matrixProblems(data)
  if (problems.length > 0)
    throw new UsageError(
      `matrix: --history: ${file} beside it is not a matrix.json of shop-conformance (${problems[0]})`,
    )
  return data as Matrix
}

/** An earlier matrix's history.json, checked against its schema. */
function readHistory(file: string): History {
  const data = readJson(file, 'matrix: --history')
  const problems = historyProblems(data)
  if (problems.length > 0)
    throw new UsageError(`matrix: --history ${file}: not a history.json of shop-conformance (${problems[0]})`)
  return data as History
}
