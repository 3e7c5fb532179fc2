import { describe, expect, it } from 'vitest'
import { UsageError } from '../base/usage-error.ts'
import type { Result } from '../results/result.ts'
import { buildMatrix, type MatrixInput } from './matrix.ts'
import { historyOf, runChanges, transitionCount, type History } from './matrix-history.ts'
import { historyProblems, matrixProblems } from './matrix-schema.ts'
import type { Report } from './model.ts'
import { planResults, reportOf, sampleBlock } from './testing.ts'

const ROUTE = 'GET /V1/directory/currency › route'
const ACCESS = 'GET /V1/modules › access'

/** A whole run of `name version`, started at minute `minute`, with `patch` applied to results by id. */
function run(
  name: string,
  version: string,
  minute: number,
  patch: Record<string, Partial<Result>> = {},
  drop: string[] = [],
): Report {
  const results = planResults()
    .filter((r) => !drop.includes(r.id))
    .map((r) => (patch[r.id] !== undefined ? { ...r, ...patch[r.id] } : r))
  const at = new Date(Date.UTC(2026, 10, 1, 0, minute)).toISOString()
  return reportOf(results, {
    target: { baseUrl: `http://${name.toLowerCase()}.test`, name, version },
    run: { id: `${name}-${minute}` },
    startedAt: at,
  })
}
const input = (report: Report, file = `${report.run.id}.json`): MatrixInput => ({ report, file })
const failed = (message = 'broken'): Partial<Result> => ({ status: 'failed', message })
const refusal = (inputs: MatrixInput[], options = {}): string => {
  try {
    buildMatrix(inputs, options)
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError)
    return (err as Error).message
  }
  throw new Error('expected a UsageError')
}

describe('the conformance matrix', () => {
  it('one column per implementation, one row per result id; a result a report lacks is not run, never passed', () => {
    const na: Result = {
      ...planResults()[0]!,
      id: 'GET /V1/directory/currency › shape',
      check: 'shape',
      status: 'skipped',
      applicable: false,
      message: 'does not apply',
    }
    const a = run('Acme', '1.0', 1)
    const b = run('Platform', '2.4.7-p7', 2, { [ROUTE]: failed('404 no-route') })
    const older = {
      ...run('Platform', '2.4.6', 3, {}, [ACCESS]),
      suite: { name: 'shop-conformance', version: '0.0.9' },
    }
    for (const r of [a, b, older]) r.results.push(na)
    const { matrix, shown } = buildMatrix([input(a), input(b), input(older)])
    expect(matrix.columns.map((c) => c.label)).toEqual(['Acme 1.0', 'Platform 2.4.7-p7', 'Platform 2.4.6'])
    expect(shown).toEqual([a, b, older])
    expect(matrix.rows).toHaveLength(planResults().length)
    const row = (id: string) => matrix.rows.find((r) => r.id === id)!
    expect(row(ROUTE)).toMatchObject({
      module: 'directory',
      check: 'route',
      label: 'GET /V1/directory/currency',
      differs: true,
    })
    expect(row(ROUTE).cells.map((c) => c.outcome)).toEqual(['passed', 'failed', 'passed'])
    expect(row(ROUTE).cells[1]!.message).toBe('404 no-route')
    expect(row(ACCESS).cells.map((c) => c.outcome)).toEqual(['passed', 'passed', 'not run'])
    expect(matrix.rows.filter((r) => r.differs).map((r) => r.id)).toEqual(
      [ACCESS, ROUTE].sort(
        (x, y) => matrix.rows.findIndex((r) => r.id === x) - matrix.rows.findIndex((r) => r.id === y),
      ),
    )
    // The check that applies nowhere is left out, and said so.
    expect(matrix.scope).toMatchObject({
      rows: planResults().length,
      differing: 2,
      notApplicableEverywhere: 1,
      allowed: [],
    })
    expect(matrix.scope.text).toBe(
      `3 implementations × ${planResults().length} results of the spec's checks, 2 where they differ; 1 that apply in no column left out`,
    )
    // Each column's verdict is its report's own.
    expect(matrix.columns.map((c) => [c.certification.verdict, c.certification.percent])).toEqual(
      [a, b, older].map((r) => [r.certification.verdict, r.certification.percent]),
    )
    expect(matrix.columns.map((c) => c.certification.verdict)).toEqual(['conforms', 'does not conform', 'incomplete'])
    expect(matrix.columns[2]!.counts).toMatchObject({ 'not run': 1, failed: 0 })
    expect(matrix.columns[1]!.modules.find((m) => m.module === 'directory')).toMatchObject({
      verdict: 'does not conform',
      text: '1 failure',
    })
    // Grouped by module (the spec's order), then check, then the catalog's order.
    const modules = matrix.rows.map((r) => r.module).filter((m, i, all) => all.indexOf(m) === i)
    expect(modules).toEqual(matrix.modules.map((m) => m.id))
    expect(matrix.rows.filter((r) => r.check === 'workflow').at(-1)!.label).toMatch(/^[a-z-]+ › \d\d /)
    expect(matrixProblems(JSON.parse(JSON.stringify(matrix)))).toEqual([])
  })

  it("keeps a check whose code threw as an error, apart from the shop's failures, in the matrix and its history", () => {
    const a = run('Acme', '1.0', 1, { [ROUTE]: { status: 'error', message: "the suite's code threw: TypeError" } })
    const { matrix, history } = buildMatrix([input(a), input(run('Platform', '2.4.7-p7', 2))])
    expect(matrix.rows.find((r) => r.id === ROUTE)!.cells.map((c) => c.outcome)).toEqual(['error', 'passed'])
    expect(matrix.columns[0]!.counts).toMatchObject({ error: 1, failed: 0 })
    expect(matrixProblems(JSON.parse(JSON.stringify(matrix)))).toEqual([])
    expect(historyProblems(JSON.parse(JSON.stringify(history)))).toEqual([])
  })

  it('shows the newest report of an implementation; its others are its history', () => {
    const first = run('Platform', '2.4.7-p7', 1)
    const second = run('Platform', '2.4.7-p7', 2, { [ROUTE]: failed() })
    const { matrix, history } = buildMatrix([input(second), input(first)])
    expect(matrix.columns).toHaveLength(1)
    expect(matrix.columns[0]).toMatchObject({
      label: 'Platform 2.4.7-p7',
      reports: 2,
      report: { runId: second.run.id },
    })
    expect(history.implementations[0]!.runs.map((r) => r.runId)).toEqual([first.run.id, second.run.id])
  })

  it('names a column by the report, by --as, or by the URL when the report names no target', () => {
    const unnamed = reportOf(planResults(), { target: { baseUrl: 'http://old.test' } })
    const { matrix } = buildMatrix([
      input(unnamed, 'old.json'),
      { ...input(run('X', '1', 1)), as: { name: 'Platform', version: '2.4.7-p8' } },
    ])
    expect(matrix.columns.map((c) => [c.label, c.implementation.from])).toEqual([
      ['http://old.test', 'base URL'],
      ['Platform 2.4.7-p8', '--as'],
    ])
  })

  it("compares the spec's results only: a shop's extension operations are counted apart", () => {
    const ext: Result = {
      ...planResults()[0]!,
      id: 'GET /V1/acme/thing › extension-route',
      module: 'extensions',
      check: 'extension-route',
      origin: 'extension',
      extension: true,
      status: 'failed',
    }
    const a = run('Acme', '1', 1)
    a.results.push(ext)
    const { matrix } = buildMatrix([input(a), input(run('B', '1', 2))])
    expect(matrix.rows.some((r) => r.id === ext.id)).toBe(false)
    expect(matrix.columns[0]!.outsideTheSpec).toBe(1)
    expect(matrix.scope.text).toContain('results from outside the spec not compared (Acme 1 1)')
  })

  it("marks a failure the report's baseline lists, still as failed", () => {
    const results = planResults().map((r) => (r.id === ROUTE ? { ...r, ...failed() } : r))
    const report = reportOf(
      results,
      { target: { name: 'A' } },
      {
        made: true,
        baseline: {
          file: 'b.json',
          baseline: { version: 1, entries: [{ id: ROUTE, reason: 'known' }] },
          allowStale: false,
        },
      },
    )
    const cell = buildMatrix([input(report)]).matrix.rows.find((r) => r.id === ROUTE)!.cells[0]!
    expect(cell).toMatchObject({ outcome: 'failed', baselined: true })
  })

  it('refuses another spec version, a slice, a run cut short and one that never started, unless asked', () => {
    const clean = input(run('A', '1', 1))
    const other = { ...run('B', '1', 2), spec: { version: '2.5.0' } }
    expect(refusal([clean, input(other, 'b.json')])).toBe(
      "matrix: b.json is of spec 2.5.0, this suite's rules are of spec 2.4.9: pass --allow-spec-mismatch to set them side by side anyway",
    )
    const mixed = buildMatrix([clean, input(other, 'b.json')], { allowSpecMismatch: true }).matrix
    expect(mixed.spec).toEqual({ version: '2.4.9', otherVersions: ['2.5.0'] })
    expect(mixed.scope.allowed).toEqual(['--allow-spec-mismatch'])

    const slice = reportOf(planResults({ modules: ['directory'] }), {
      target: { name: 'S' },
      run: { modules: ['directory'] },
      plan: sampleBlock(['directory'], []),
    })
    expect(refusal([clean, input(slice, 's.json')])).toMatch(
      /^matrix: s\.json is partial: 9 of \d+ checks selected \(--module directory\): what it did not select would show as not run; pass --allow-partial to compare it anyway$/,
    )
    const partial = buildMatrix([clean, input(slice, 's.json')], { allowPartial: true }).matrix
    expect(partial.columns[1]!.counts['not run']).toBe(partial.rows.length - 9)
    expect(partial.scope.text).toMatch(/; partial: S \(partial: 9 of \d+ checks selected \(--module directory\)\)$/)

    const cut = reportOf(planResults().slice(0, 10), { target: { name: 'C' }, partial: { reason: 'deadline' } })
    expect(refusal([input(cut, 'c.json')])).toBe(
      'matrix: c.json is of a run cut short by the run deadline (--run-timeout-ms): what it did not reach would show as not run; pass --allow-partial to compare it anyway',
    )
    const never = reportOf([], { runErrors: ['the admin credentials were refused (401)'] }, { made: false })
    expect(refusal([input(never, 'n.json')], { allowPartial: true })).toBe(
      'matrix: n.json: it is the report of a run that never started (exit 2: the run could not be made: the admin credentials were refused (401)); it judged nothing to compare',
    )
    expect(refusal([])).toBe('matrix: no reports given (matrix REPORT.json ... --out DIR)')
  })
})

describe('the history', () => {
  const first = run('Platform', '2.4.7-p7', 1)
  const second = run('Platform', '2.4.7-p7', 2, { [ROUTE]: failed() })
  const third = run('Platform', '2.4.7-p7', 3, { [ROUTE]: failed() }, [ACCESS])
  const of = (...reports: Report[]) => historyOf([{ name: 'Platform', version: '2.4.7-p7', reports }])

  it('keeps only transitions: a second report with one result changed adds exactly one', () => {
    const one = of(first)
    expect(transitionCount(one)).toBe(first.results.length)
    const two = of(first, second)
    expect(transitionCount(two)).toBe(transitionCount(one) + 1)
    expect(two.implementations[0]!.results[ROUTE]).toEqual([
      { date: first.startedAt, status: 'passed', suiteVersion: '0.1.0', runId: first.run.id },
      { date: second.startedAt, status: 'failed', suiteVersion: '0.1.0', runId: second.run.id },
    ])
    // A result a later run does not have becomes "not run" there.
    expect(of(first, second, third).implementations[0]!.results[ACCESS]!.map((t) => t.status)).toEqual([
      'passed',
      'not run',
    ])
    expect(historyProblems(JSON.parse(JSON.stringify(of(first, second, third))))).toEqual([])
  })

  it('continues an earlier history as if every report were given at once, whatever the order; a run taken once', () => {
    const whole = of(first, second, third)
    const roundTrip = (h: History) => JSON.parse(JSON.stringify(h)) as History
    expect(
      historyOf([{ name: 'Platform', version: '2.4.7-p7', reports: [third] }], roundTrip(of(first, second))),
    ).toEqual(whole)
    // An older run given later lands in its place.
    expect(
      historyOf([{ name: 'Platform', version: '2.4.7-p7', reports: [second, first] }], roundTrip(of(third))),
    ).toEqual(whole)
    expect(
      historyOf([{ name: 'Platform', version: '2.4.7-p7', reports: [first, second, third] }], roundTrip(whole)),
    ).toEqual(whole)
    // Another implementation is added beside.
    expect(
      historyOf([{ name: 'Acme', reports: [run('Acme', '1', 1)] }], roundTrip(whole)).implementations.map(
        (h) => h.name,
      ),
    ).toEqual(['Platform', 'Acme'])
  })

  it('says per run what changed there, from what', () => {
    const runs = runChanges(of(first, second, third).implementations[0]!)
    expect(runs.map((r) => [r.runId, r.first, r.recorded, r.changes])).toEqual([
      [first.run.id, true, first.results.length, []],
      [second.run.id, false, 0, [{ id: ROUTE, from: 'passed', to: 'failed' }]],
      [third.run.id, false, 0, [{ id: ACCESS, from: 'passed', to: 'not run' }]],
    ])
  })

  it('is checked against its schema: what is not history.json is said, line by line', () => {
    const broken = JSON.parse(JSON.stringify(of(first))) as {
      implementations: { results: Record<string, { status: string }[]> }[]
      extra?: boolean
    }
    broken.implementations[0]!.results[ROUTE]![0]!.status = 'green'
    broken.extra = true
    expect(historyProblems(broken)).toEqual([
      '(top) must NOT have additional properties (extra)',
      `/implementations/0/results/${ROUTE.replace(/\//g, '~1')}/0/status must be equal to one of the allowed values ({"allowedValues":["passed","failed","error","not judged","not configured","not applicable","not run"]})`,
    ])
    expect(matrixProblems({ format: 'shop-conformance-matrix', version: 2 })[0]).toBe(
      "(top) must have required property 'generatedAt'",
    )
  })
})
