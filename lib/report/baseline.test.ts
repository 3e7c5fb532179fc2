import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { Status } from '../results/verdict.ts'
import type { Result } from '../results/result.ts'
import { CATALOG } from '../spec/catalog/index.ts'
import { UsageError } from '../base/usage-error.ts'
import {
  applyBaseline,
  baselineFromReport,
  baselineSummary,
  parseBaseline,
  readBaseline,
  type Baseline,
} from './baseline.ts'
import { reportOf, resultOf } from './testing.ts'

const dir = mkdtempSync(join(tmpdir(), 'shop-conformance-baseline-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const file = (name: string, text: string) => {
  const path = join(dir, name)
  writeFileSync(path, text)
  return path
}

const rows = CATALOG.slice(0, 5)
const result = (i: number, status: Status, message = `${status} ${i}`): Result => resultOf(rows[i]!, status, message)
// 0 failed, 1 failed, 2 passed, 3 skipped, 4 failed
const results = [
  result(0, 'failed', 'no route\nat all'),
  result(1, 'failed'),
  result(2, 'passed'),
  result(3, 'skipped'),
  result(4, 'failed'),
]
const report = { results, runErrors: [] as string[] }
const id = (i: number) => results[i]!.id
/** The exit of a run of `results` with `baseline`, as the run judges it. */
const exitWith = (baseline: Baseline, allowStale = false, runErrors: string[] = []) =>
  reportOf(results, { runErrors }, { made: true, baseline: { file: 'b.json', baseline, allowStale } }).exit

describe('readBaseline', () => {
  const problem = (text: string) => {
    try {
      parseBaseline(text, 'b.json')
    } catch (err) {
      expect(err).toBeInstanceOf(UsageError)
      expect((err as Error).message).not.toContain('\n')
      return (err as Error).message
    }
    return 'no error'
  }

  it('reads a valid file', () => {
    const path = file(
      'ok.json',
      JSON.stringify({
        version: 1,
        entries: [
          { id: id(0), reason: 'SHOP-1' },
          { id: id(2), reason: 'SHOP-2', note: 'extra keys are kept out' },
        ],
      }),
    )
    expect(readBaseline(path)).toEqual({
      version: 1,
      entries: [
        { id: id(0), reason: 'SHOP-1' },
        { id: id(2), reason: 'SHOP-2' },
      ],
    })
    expect(readBaseline(file('empty.json', '{"version":1,"entries":[]}'))).toEqual({ version: 1, entries: [] })
  })

  it('names the file when it cannot be read', () => {
    expect(() => readBaseline(join(dir, 'missing.json'))).toThrow(
      new UsageError(`baseline ${join(dir, 'missing.json')}: cannot read it (ENOENT)`),
    )
    expect(() => readBaseline(dir)).toThrow(new UsageError(`baseline ${dir}: cannot read it (EISDIR)`))
  })

  it('refuses what is not JSON', () => {
    expect(problem('{ version: 1 ')).toMatch(/^baseline b\.json: not JSON \(/)
    expect(problem('')).toMatch(/^baseline b\.json: not JSON/)
    expect(() => readBaseline(file('bad.json', '[1,'))).toThrow(/^baseline .*bad\.json: not JSON/)
  })

  it('refuses the wrong shape', () => {
    expect(problem('[]')).toBe('baseline b.json: wrong shape: expected an object { "version": 1, "entries": [...] }')
    expect(problem('{"entries":[]}')).toBe('baseline b.json: wrong shape: "version" must be 1, not missing')
    expect(problem('{"version":2,"entries":[]}')).toBe('baseline b.json: wrong shape: "version" must be 1, not 2')
    expect(problem('{"version":1}')).toBe('baseline b.json: wrong shape: "entries" must be an array')
    expect(problem('{"version":1,"entries":["GET /V1/x › route"]}')).toBe(
      'baseline b.json: wrong shape: entry 1 is not an object',
    )
    expect(problem('{"version":1,"entries":[{"reason":"r"}]}')).toBe(
      'baseline b.json: wrong shape: entry 1 has no "id"',
    )
    expect(problem('{"version":1,"entries":[{"id":"","reason":"r"}]}')).toBe(
      'baseline b.json: wrong shape: entry 1 has no "id"',
    )
    expect(problem('{"version":1,"entries":[{"id":"a","reason":5}]}')).toBe(
      'baseline b.json: wrong shape: entry 1 (a): "reason" must be a string',
    )
  })

  it('refuses an entry without a reason', () => {
    expect(problem(JSON.stringify({ version: 1, entries: [{ id: 'a', reason: 'r' }, { id: 'b' }] }))).toBe(
      'baseline b.json: entry 2 (b) has no "reason"',
    )
    expect(problem(JSON.stringify({ version: 1, entries: [{ id: 'a', reason: '  ' }] }))).toBe(
      'baseline b.json: entry 1 (a) has an empty "reason"',
    )
  })

  it("keeps a release profile's head and its entries' release and evidence, checked", () => {
    const madeFrom = { run: 'r1', suite: '0.1.0', spec: '2.4.9', date: '2026-11-26' }
    const profile = { name: 'platform:2.4.8', release: '2.4.8', about: 'defaults', madeFrom }
    const entry = { id: 'a', reason: 'r', release: '2.4.8', evidence: { kind: 'absent', why: '404' } }
    expect(
      parseBaseline(JSON.stringify({ version: 1, profile: { ...profile, extra: 1 }, entries: [entry] }), 'b.json'),
    ).toEqual({ version: 1, profile, entries: [entry] })
    expect(problem(JSON.stringify({ version: 1, entries: [{ ...entry, evidence: { kind: 'absent' } }] }))).toBe(
      'baseline b.json: wrong shape: entry 1 (a): "evidence" must be { "kind": "...", "why": "..." }',
    )
    expect(problem(JSON.stringify({ version: 1, entries: [{ ...entry, release: 2 }] }))).toBe(
      'baseline b.json: wrong shape: entry 1 (a): "release" must be a string',
    )
    expect(problem(JSON.stringify({ version: 1, profile: { ...profile, madeFrom: { run: 'r1' } }, entries: [] }))).toBe(
      'baseline b.json: wrong shape: "profile" must be { "name", "release", "about", "madeFrom": { "run", "suite", "spec", "date" } }',
    )
  })

  it('refuses a duplicate id', () => {
    expect(
      problem(
        JSON.stringify({
          version: 1,
          entries: [
            { id: 'a', reason: 'r' },
            { id: 'b', reason: 'r' },
            { id: 'a', reason: 's' },
          ],
        }),
      ),
    ).toBe('baseline b.json: duplicate id "a" (entries 1 and 3)')
  })
})

describe('applyBaseline', () => {
  const baseline: Baseline = {
    version: 1,
    entries: [
      { id: id(0), reason: 'known' },
      { id: id(2), reason: 'fixed since' },
      { id: id(3), reason: 'not judged this time' },
      { id: 'GET /V1/elsewhere › route', reason: 'another module' },
    ],
  }
  const outcome = applyBaseline(report, baseline)

  it('sorts failures into new and baselined, entries into stale, unjudged and unknown', () => {
    expect(outcome.newFailures.map((r) => r.id)).toEqual([id(1), id(4)])
    expect(outcome.baselinedFailures.map((r) => r.id)).toEqual([id(0)])
    expect(outcome.stale.map((e) => e.id)).toEqual([id(2)])
    expect(outcome.unjudged.map((e) => e.id)).toEqual([id(3)])
    expect(outcome.unknown.map((e) => e.id)).toEqual(['GET /V1/elsewhere › route'])
  })

  it('fails the run on a new failure', () => {
    expect(exitWith(baseline, true)).toEqual({ status: 1, reason: '2 new failures (not in the baseline)' })
  })

  it('fails the run on a stale entry unless stale entries are allowed', () => {
    const all: Baseline = { version: 1, entries: [0, 1, 4, 2].map((i) => ({ id: id(i), reason: 'r' })) }
    const o = applyBaseline(report, all)
    expect(o.newFailures).toEqual([])
    expect(o.stale.map((e) => e.id)).toEqual([id(2)])
    expect(exitWith(all)).toEqual({
      status: 1,
      reason: '1 stale baseline entry (now passing: remove it or pass --allow-stale)',
    })
    expect(exitWith(all, true)).toEqual({ status: 0, reason: 'no new failure (3 baselined, 1 stale entry allowed)' })
    const block = (b: Baseline, allowStale = false) =>
      reportOf(results, {}, { made: true, baseline: { file: 'b.json', baseline: b, allowStale } })
    expect(baselineSummary(block(all))).toContain(`! stale (now passes; remove it or pass --allow-stale): ${id(2)}`)
    expect(baselineSummary(block(all, true))).toContain(`! stale (now passes, allowed): ${id(2)}`)
  })

  it('passes when every failure is baselined and nothing is stale; unknown and unjudged entries do not fail it', () => {
    const b: Baseline = {
      version: 1,
      entries: [0, 1, 4, 3].map((i) => ({ id: id(i), reason: 'r' })).concat([{ id: 'workflow x › 01 y', reason: 'r' }]),
    }
    const o = applyBaseline(report, b)
    expect(exitWith(b)).toEqual({ status: 0, reason: 'no new failure (3 baselined)' })
    expect(
      baselineSummary(
        reportOf(results, {}, { made: true, baseline: { file: 'b.json', baseline: b, allowStale: false } }),
      ),
    ).toBe('Baseline b.json: 0 new failures, 3 baselined, 0 stale, 1 not judged, 1 not in this run\n')
    expect(o.stale).toEqual([])
  })

  it('still fails a run that had run errors', () => {
    expect(
      exitWith({ version: 1, entries: [0, 1, 4].map((i) => ({ id: id(i), reason: 'r' })) }, false, ['suite crashed']),
    ).toEqual({ status: 1, reason: '1 run error' })
  })
})

describe('baselineFromReport', () => {
  const now = new Date('2026-03-04T10:00:00Z')

  it('lists every current failure with its message and the date', () => {
    const b = baselineFromReport(report, undefined, now)
    expect(b).toEqual({
      version: 1,
      entries: [
        { id: id(0), reason: 'no route at all (baselined 2026-03-04)' },
        { id: id(1), reason: 'failed 1 (baselined 2026-03-04)' },
        { id: id(4), reason: 'failed 4 (baselined 2026-03-04)' },
      ],
    })
    expect(baselineFromReport(report, 'SHOP-9 vendor bug', now).entries[0]!.reason).toBe(
      'SHOP-9 vendor bug (baselined 2026-03-04)',
    )
  })

  it('makes a file that reads back and excuses exactly the run it came from', () => {
    const b = baselineFromReport(report, undefined, now)
    const path = file('from-report.json', JSON.stringify(b))
    const o = applyBaseline(report, readBaseline(path))
    expect(o).toMatchObject({ newFailures: [], stale: [], unknown: [] })
    expect(exitWith(readBaseline(path)).status).toBe(0)
    expect(baselineFromReport({ results: [result(2, 'passed')] }, undefined, now)).toEqual({ version: 1, entries: [] })
  })
})
