/**
 * `shop-conformance matrix` as a user gives it reports: the two real releases' whole runs (shipped gzip-compressed),
 * reports of its own history, and what it refuses. The reference target's runs and the page in a browser:
 * lib/report/matrix-html.browser.test.ts; the binary: commands-bin.test.ts.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { Matrix } from '../report/matrix.ts'
import type { History } from '../report/matrix-history.ts'
import { historyProblems, matrixProblems } from '../report/matrix-schema.ts'
import type { Report } from '../report/model.ts'
import { planResults, reportOf, sampleBlock } from '../report/testing.ts'
import { main } from './main.ts'

const REAL = resolve(import.meta.dirname, '../../fixtures/observations/real-runs')
const P7 = join(REAL, '2.4.7-p7/report-full.json.gz')
const P8 = join(REAL, '2.4.7-p8-regionpricing/report-full.json.gz')
/** The results release 2.4.7-p7 fails, each traced to why (known-deviations.tsv). */
const DEVIATIONS = readFileSync(join(REAL, '2.4.7-p7/known-deviations.tsv'), 'utf8')
  .split('\n')
  .filter((l) => l !== '' && !l.startsWith('#'))
  .map((l) => l.split('\t')[0]!)
const ROUTE = 'GET /V1/directory/currency › route'

const dir = mkdtempSync(join(tmpdir(), 'shop-conformance-matrix-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

async function matrix(argv: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  let stdout = ''
  let stderr = ''
  const status = await main(['matrix', ...argv], { out: (t) => (stdout += t), err: (t) => (stderr += t) })
  return { status, stdout, stderr }
}
const read = <T>(file: string) => JSON.parse(readFileSync(file, 'utf8')) as T

/** A report file of `name` at minute `minute`, with ROUTE failed when told. */
function reportFile(
  file: string,
  name: string,
  minute: number,
  routeFails = false,
  patch: Partial<Report> = {},
): string {
  const results = planResults().map((r) =>
    r.id === ROUTE && routeFails ? { ...r, status: 'failed' as const, message: '404' } : r,
  )
  const report = reportOf(results, {
    target: { name, version: '1.0' },
    run: { id: `${name}-${minute}` },
    startedAt: new Date(Date.UTC(2026, 10, 1, 0, minute)).toISOString(),
    ...patch,
  })
  writeFileSync(join(dir, file), JSON.stringify(report))
  return join(dir, file)
}

describe('shop-conformance matrix', () => {
  it("sets the two real releases side by side: their 22 deviations in both columns, the newer release's own failure apart", async () => {
    const out = join(dir, 'real')
    const run = await matrix([
      P7,
      P8,
      '--as',
      `${P7}=Platform@2.4.7-p7`,
      '--as',
      `${P8}=Platform@2.4.7-p8-regionpricing`,
      '--out',
      out,
    ])
    expect(run.stderr).toBe('')
    expect(run.status).toBe(0)
    const m = read<Matrix>(join(out, 'matrix.json'))
    expect(matrixProblems(m)).toEqual([])
    expect(historyProblems(read(join(out, 'history.json')))).toEqual([])
    expect(readFileSync(join(out, 'matrix.html'), 'utf8')).toMatch(/^<!doctype html>/)
    expect(m.columns.map((c) => [c.label, c.implementation.from, c.certification.verdict])).toEqual([
      ['Platform 2.4.7-p7', '--as', 'does not conform'],
      ['Platform 2.4.7-p8-regionpricing', '--as', 'does not conform'],
    ])
    expect(DEVIATIONS).toHaveLength(22)
    const bothFail = m.rows.filter((r) => r.cells.every((c) => c.outcome === 'failed')).map((r) => r.id)
    expect(bothFail.sort()).toEqual([...DEVIATIONS].sort())
    // The third-party module's release fails one more (its attribute set refused), and the check after it is not
    // judged.
    expect(m.rows.filter((r) => r.differs).map((r) => [r.id, r.cells.map((c) => c.outcome)])).toEqual([
      ['POST /V1/eav/attribute-sets › body-keys', ['passed', 'failed']],
      ['POST /V1/eav/attribute-sets › shape', ['passed', 'not judged']],
    ])
    expect(m.scope.text).toBe(
      "2 implementations × 945 results of the spec's checks, 2 where they differ; 1332 that apply in no column left out; results from outside the spec not compared (Platform 2.4.7-p7 426)",
    )
    expect(run.stdout).toContain(
      `matrix ${join(out, 'matrix.html')} (also matrix.json, history.json): ${m.scope.text}\n`,
    )
    expect(run.stdout).toContain(
      `  Platform 2.4.7-p7: does not conform · 93.1% of 945 required checks passed (${P7}, run mwxn949x3c58, 2026-11-26T14:24:45.285Z)\n`,
    )
    expect(run.stdout).toContain(
      `history ${join(out, 'history.json')}: 2 runs of 2 implementations, 4554 transitions\n`,
    )
  })

  it('a second report of an implementation with one result changed adds exactly one transition, given at once or later', async () => {
    const first = reportFile('first.json', 'Acme', 1)
    const second = reportFile('second.json', 'Acme', 2, true)
    const once = join(dir, 'once')
    expect((await matrix([first, '--out', once])).status).toBe(0)
    const before = read<History>(join(once, 'history.json'))
    const later = await matrix([second, '--history', join(once, 'history.json'), '--out', once])
    expect(later.status).toBe(0)
    expect(later.stdout).toContain(`(1 added to ${join(once, 'history.json')})`)
    const after = read<History>(join(once, 'history.json'))
    const count = (h: History) => Object.values(h.implementations[0]!.results).flat().length
    expect(count(after)).toBe(count(before) + 1)
    expect(after.implementations[0]!.results[ROUTE]!.map((t) => [t.status, t.runId])).toEqual([
      ['passed', 'Acme-1'],
      ['failed', 'Acme-2'],
    ])
    const together = join(dir, 'together')
    expect((await matrix([second, first, '--out', together])).status).toBe(0)
    expect(read(join(together, 'history.json'))).toEqual(after)
    expect(read<Matrix>(join(together, 'matrix.json')).columns[0]).toMatchObject({
      label: 'Acme 1.0',
      reports: 2,
      report: { runId: 'Acme-2' },
    })
    // The same run given twice is one report of its implementation, and said so.
    const twice = await matrix([first, second, first, '--out', join(dir, 'twice')])
    expect(twice.stderr).toBe(`matrix: ${first} is run Acme-1 again (as ${first}): taken once\n`)
    expect(read<Matrix>(join(dir, 'twice', 'matrix.json')).columns[0]!.reports).toBe(2)
  })

  it("continuing a history keeps every implementation's latest column: the others are carried from the matrix.json beside it (issue 31.10)", async () => {
    const out = join(dir, 'four')
    const given = ['A', 'B', 'C', 'D'].map((name, i) => reportFile(`four-${name}.json`, name, 10 + i, name === 'C'))
    expect((await matrix([...given, '--out', out])).status).toBe(0)
    const before = read<Matrix>(join(out, 'matrix.json'))
    // A's new run, continued in the same directory as a CI keeps it: A's column is the new run, B, C and D as they
    // were.
    const newer = reportFile('four-A2.json', 'A', 20, true)
    const later = await matrix([newer, '--history', join(out, 'history.json'), '--out', out])
    expect([later.status, later.stderr]).toEqual([0, ''])
    const after = read<Matrix>(join(out, 'matrix.json'))
    expect(matrixProblems(after)).toEqual([])
    expect(after.columns.map((c) => [c.label, c.report.runId])).toEqual([
      ['A 1.0', 'A-20'],
      ['B 1.0', 'B-11'],
      ['C 1.0', 'C-12'],
      ['D 1.0', 'D-13'],
    ])
    for (const c of [1, 2, 3]) expect(after.columns[c]).toEqual(before.columns[c])
    expect(after.rows.find((r) => r.id === ROUTE)!.cells.map((c) => c.outcome)).toEqual([
      'failed',
      'passed',
      'failed',
      'passed',
    ])
    expect(after.rows.map((r) => r.id)).toEqual(before.rows.map((r) => r.id))
    expect(after.rows.filter((r) => r.id !== ROUTE).every((r) => !r.differs)).toBe(true)
    expect(later.stdout).toContain(
      `  B 1.0: ${before.columns[1]!.certification.headline} (${given[1]}, run B-11, ${before.columns[1]!.report.startedAt}; carried from ${join(out, 'matrix.json')})\n`,
    )
    const html = readFileSync(join(out, 'matrix.html'), 'utf8')
    expect(html).toContain('"carried":true')
    // An older report of an implementation than its carried column is its history, not its column.
    const older = reportFile('four-B0.json', 'B', 1, true)
    expect((await matrix([older, '--history', join(out, 'history.json'), '--out', out])).status).toBe(0)
    expect(read<Matrix>(join(out, 'matrix.json')).columns.map((c) => c.report.runId)).toEqual([
      'A-20',
      'B-11',
      'C-12',
      'D-13',
    ])
    expect(
      read<History>(join(out, 'history.json'))
        .implementations.find((h) => h.name === 'B')!
        .runs.map((r) => r.runId),
    ).toEqual(['B-1', 'B-11'])
    // A history without its matrix: the reports given only, and said so.
    const alone = join(dir, 'alone')
    const lone = await matrix([newer, '--history', join(out, 'history.json'), '--out', alone])
    expect(lone.stderr).toBe('')
    const moved = join(dir, 'moved-history.json')
    writeFileSync(moved, readFileSync(join(out, 'history.json')))
    const bare = await matrix([newer, '--history', moved, '--out', alone])
    expect(bare.stderr).toBe(
      `matrix: no matrix.json beside ${moved}: the columns are the implementations of the reports given only\n`,
    )
    expect(read<Matrix>(join(alone, 'matrix.json')).columns.map((c) => c.label)).toEqual(['A 1.0'])
  })

  it('refuses what it cannot compare in one line, exit 2, and says which flag lets it in', async () => {
    const clean = reportFile('clean.json', 'Acme', 1)
    const slice = join(dir, 'slice.json')
    writeFileSync(
      slice,
      JSON.stringify(
        reportOf(planResults({ modules: ['directory'] }), {
          target: { name: 'S' },
          run: { modules: ['directory'] },
          plan: sampleBlock(['directory'], []),
        }),
      ),
    )
    const other = reportFile('other.json', 'B', 2, false, { spec: { version: '2.5.0' } })
    const out = join(dir, 'refused')
    const refused = async (argv: string[], line: string | RegExp) => {
      const run = await matrix(argv)
      expect(run.status).toBe(2)
      expect(run.stdout).toBe('')
      expect(run.stderr.split('\n')).toHaveLength(2)
      expect(run.stderr).toMatch(typeof line === 'string' ? `shop-conformance: ${line}\n` : line)
    }
    await refused(
      [clean, slice, '--out', out],
      /^shop-conformance: matrix: .*slice\.json is partial: 9 of \d+ checks selected \(--module directory\): .*pass --allow-partial to compare it anyway\n$/,
    )
    await refused(
      [clean, other, '--out', out],
      `matrix: ${other} is of spec 2.5.0, this suite's rules are of spec 2.4.9: pass --allow-spec-mismatch to set them side by side anyway`,
    )
    await refused(
      [clean, '--as', 'elsewhere.json=X', '--out', out],
      `matrix: --as elsewhere.json=X: REPORT=NAME[@VERSION], REPORT one of the reports given (${clean})`,
    )
    await refused(
      [clean, '--history', clean, '--out', out],
      /^shop-conformance: matrix: --history .*clean\.json: not a history\.json of shop-conformance \(\(top\) must have required property 'format'\)\n$/,
    )
    // Reports judged without a target: not runs to set beside runs.
    const passive = reportFile('passive.json', 'P', 3, false, { mode: 'passive' })
    await refused(
      [clean, passive, '--out', out],
      `matrix: ${passive} is a passive report (judged from traffic the suite did not send): not a run of the suite; give the reports of runs`,
    )
    const again = reportFile('again.json', 'R', 4, false, {
      mode: 'rejudged',
      recording: {
        file: 'evidence.har',
        suite: { name: 'shop-conformance', version: '0.1.0' },
        spec: { version: '2.4.9' },
        runId: 'r1',
        baseUrl: 'http://x',
        entries: 1,
      },
    })
    await refused(
      [clean, again, '--out', out],
      `matrix: ${again} is a re-judged report (a recording judged again, nothing sent): give the report of the run it recorded (r1); compare the two with diff`,
    )
    await refused(['--out', out], 'matrix: no reports given (matrix REPORT.json ... --out DIR)')
    await refused([clean], 'matrix: --out DIR is required')
    // Asked, they are in, and the matrix says so.
    expect((await matrix([clean, slice, other, '--allow-partial', '--allow-spec-mismatch', '--out', out])).status).toBe(
      0,
    )
    expect(read<Matrix>(join(out, 'matrix.json')).scope.allowed).toEqual(['--allow-partial', '--allow-spec-mismatch'])
  })
})
