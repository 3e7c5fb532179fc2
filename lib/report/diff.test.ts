import { describe, expect, it } from 'vitest'
import type { Status } from '../results/verdict.ts'
import type { Result } from '../results/result.ts'
import { CATALOG } from '../spec/catalog/index.ts'
import { diffReports, diffText, hasNewFailures } from './diff.ts'
import type { Report } from './model.ts'
import { reportOf, resultOf } from './testing.ts'

const rows = CATALOG.slice(0, 10)
const result = (i: number, status: Status, message = `${status} ${i}`): Result => resultOf(rows[i]!, status, message)

/**
 * Run `runId`'s report of http://shop.test (diffText names both): result `i` has `statuses[i]`, or is missing where
 * that is undefined.
 */
function report(runId: string, statuses: (Status | undefined)[]): Report {
  const results = statuses.flatMap((s, i) => (s === undefined ? [] : [result(i, s)]))
  return reportOf(results, { run: { id: runId }, target: { baseUrl: 'http://shop.test' } })
}

describe('diffReports', () => {
  //                              0         1         2          3          4          5         6          7          8
  const a = report('a', ['passed', 'failed', 'failed', 'skipped', 'passed', 'failed', 'passed', undefined, undefined])
  const b = report('b', ['passed', 'failed', 'passed', 'failed', 'skipped', 'skipped', undefined, 'passed', 'failed'])
  const d = diffReports(a, b)
  const ids = (entries: { id: string }[]) => entries.map((e) => e.id)
  const id = (i: number) => result(i, 'passed').id

  it('sorts every result id into exactly one category', () => {
    expect(ids(d.newlyFailing)).toEqual([id(3)])
    expect(ids(d.newlyPassing)).toEqual([id(2)])
    expect(d.changed.map((e) => [e.id, e.before, e.after])).toEqual([
      [id(4), 'passed', 'skipped'],
      [id(5), 'failed', 'skipped'],
    ])
    expect(d.onlyInA.map((e) => [e.id, e.before, e.after])).toEqual([[id(6), 'passed', null]])
    expect(d.onlyInB.map((e) => [e.id, e.before, e.after])).toEqual([
      [id(7), null, 'passed'],
      [id(8), null, 'failed'],
    ])
    expect(d.unchanged).toBe(2)
    expect(d.newlyFailing[0]).toMatchObject({
      before: 'skipped',
      after: 'failed',
      message: 'failed 3',
      check: 'route',
      module: rows[3]!.module,
      endpoint: `${rows[3]!.method} ${rows[3]!.path}`,
    })
  })

  it('counts a failure only in B as failing anew', () => {
    expect(hasNewFailures(d)).toBe(true)
    const onlyB = diffReports(report('a', ['passed']), report('b', ['passed', 'failed']))
    expect(onlyB.newlyFailing).toEqual([])
    expect(hasNewFailures(onlyB)).toBe(true)
    expect(
      hasNewFailures(diffReports(report('a', ['failed', 'passed']), report('b', ['failed', 'passed', 'passed']))),
    ).toBe(false)
    expect(hasNewFailures(diffReports(b, a))).toBe(true)
    expect(hasNewFailures(diffReports(report('a', ['failed', 'skipped']), report('b', ['passed', 'passed'])))).toBe(
      false,
    )
  })

  it('prints a readable summary', () => {
    const text = diffText(d, { a: 'a.json', b: 'b.json' })
    expect(text).toContain('A: a.json — run a, http://shop.test, spec 2.4.9')
    expect(text).toContain(
      '1 newly failing, 1 newly passing, 2 other changes, 1 only in A, 2 only in B (1 failing), 2 unchanged',
    )
    expect(text).toContain(`Newly failing:\n  ✗ ${id(3)} (was not judged) — failed 3`)
    expect(text).toContain(`Failing, only in B:\n  ✗ ${id(8)} — failed 8`)
    expect(text).toContain(`Newly passing:\n  ✓ ${id(2)}`)
    expect(text).toContain(`~ ${id(4)}: passed → not judged`)
    expect(text).toContain(`Only in A:\n  - ${id(6)} (passed)`)
    expect(text).toContain(`Only in B:\n  + ${id(7)} (passed)`)
    expect(diffText(diffReports(a, a))).toMatch(/No differences\.\n$/)
    expect(diffText(diffReports(a, { ...b, partial: { reason: 'SIGTERM' } }))).toMatch(
      /\nB: B — run b, .*: 3 passed, 3 failed, 2 not judged, 0 not applicable \(partial run: SIGTERM\)\n/,
    )
  })

  it('says "not judged", "not configured" and "not applicable" as every other output does, never "skipped"', () => {
    const skipped = (i: number, extra: Partial<Result>) => ({ ...result(i, 'skipped'), ...extra })
    const before = reportOf(
      [
        skipped(0, { reason: 'read-only' }),
        skipped(1, { applicable: false }),
        result(2, 'passed'),
        skipped(3, { reason: 'not-configured' }),
      ],
      { run: { id: 'a' } },
    )
    const after = reportOf(
      [
        result(0, 'failed'),
        skipped(1, { reason: 'route-missing' }),
        skipped(2, { applicable: false }),
        skipped(3, { reason: 'not-configured' }),
      ],
      { run: { id: 'b' } },
    )
    const d = diffReports(before, after)
    // Not applicable before, not judged now: a change, though both are skipped results.
    expect(d.changed.map((e) => [e.id, e.beforeOutcome, e.afterOutcome])).toEqual([
      [id(1), 'not applicable', 'not judged'],
      [id(2), 'passed', 'not applicable'],
    ])
    expect(d.unchanged).toBe(1)
    const text = diffText(d)
    expect(text).toContain(`✗ ${id(0)} (was not judged) — failed 0`)
    expect(text).toContain(`~ ${id(1)}: not applicable → not judged`)
    expect(text).toContain(': 1 passed, 0 failed, 2 not judged, 1 not applicable\n')
    expect(text).not.toMatch(/skipped/)
    expect(diffText(diffReports(before, reportOf([], { run: { id: 'c' } })))).toContain(`- ${id(3)} (not configured)`)
  })
})
