/**
 * A run's report drafted from its facts alone (issue 24.3): no runner, no target, no file — the run's end and
 * an interrupted run's exit path draft it the same way. Each ending a run can have gets its report: a whole
 * run, a check that crashed, a deadline, a signal during the start, a target refused or gone, a shard.
 */
import { describe, expect, it } from 'vitest'
import { CHECK_KINDS } from '../checks/index.ts'
import { PLAN, selectionOf } from '../plan/plan.ts'
import { planResults, sampleServerErrors, serverErrorsProblems } from '../report/testing.ts'
import type { Result } from '../results/result.ts'
import { loadConfig } from '../settings/config.ts'
import type { LedgerEntry } from '../setup/ledger.ts'
import { ACL_RESOURCES, CATALOG } from '../spec/catalog/index.ts'
import { SUITE } from '../spec/version.ts'
import { draftReport, type RunRecord, type RunScope } from './report-draft.ts'

const config = loadConfig(['--seed', '7'], {}, {}, CHECK_KINDS, ACL_RESOURCES)
const WHOLE: RunScope = { selection: selectionOf([], []), limits: [] }
const NOTHING_LEFT = { removed: [], leftovers: [] }
const STARTED = new Date('2026-01-01T00:00:00.000Z')
const FINISHED = new Date('2026-01-01T00:00:09.000Z')

/** A run of the bundled target whose preflight passed, with `results` (every planned check passed unless given). */
function record(patch: Partial<RunRecord> = {}, results: readonly Result[] = planResults()): RunRecord {
  return {
    id: 'r1',
    startedAt: STARTED,
    config,
    baseline: undefined,
    target: { baseUrl: 'http://127.0.0.1:4000' },
    bundled: { name: 'shop-conformance reference target' },
    pre: { seed: { calibration: { noRoute: [], unknownStore: [], exchanges: [] } } },
    stopped: undefined,
    runErrors: [],
    notes: [],
    deadlines: { used: { read: 10_000, write: 10_000, heavyWrite: 45_000 } },
    plan: PLAN,
    schema: undefined,
    results: new Map(results.map((r) => [r.id, r])),
    serverErrors: { list: () => ({ entries: [], unlisted: {} }) },
    ...patch,
  }
}

const created: LedgerEntry = {
  kind: 'product',
  id: 'sku-1',
  key: 'sku-1',
  label: 'product main',
  state: 'created',
  ref: 'q1',
  at: '2026-01-01T00:00:01.000Z',
}

describe('the report of a run, drafted from its facts', () => {
  it('of a whole run: every result in catalog order with what does not apply, what it made, the target naming itself, exit 0', () => {
    const report = draftReport(
      record({ notes: ['renewed', 'renewed'] }),
      [created],
      WHOLE,
      { removed: [{ kind: 'product', id: 'sku-1', label: 'product main' }], leftovers: [] },
      FINISHED,
    )
    expect(report.exit).toEqual({ status: 0, reason: 'no check failed' })
    expect(report.certification.verdict).toBe('conforms')
    expect(report.results.filter((r) => r.applicable !== false)).toHaveLength(PLAN.checks.length)
    expect(report.results.filter((r) => r.applicable === false)).toHaveLength(
      PLAN.unplanned.filter((u) => u.why === 'not-applicable').length,
    )
    expect(report.results[0]!.endpoint).toEqual({ method: CATALOG[0]!.method, path: CATALOG[0]!.path })
    expect(report.target).toMatchObject({
      baseUrl: 'http://127.0.0.1:4000',
      name: 'shop-conformance reference target',
      version: SUITE.version,
      bundledReferenceTarget: true,
    })
    expect(report.run).toMatchObject({ id: 'r1', seed: 7 })
    // The deadlines the run used (issue 29): the settings, and the longest each kind of call was given.
    expect(report.run).toMatchObject({
      timeoutMs: 10_000,
      maxTimeoutMs: 120_000,
      deadlines: { read: 10_000, write: 10_000, heavyWrite: 45_000 },
    })
    expect(report).toMatchObject({
      durationMs: 9000,
      created: [{ kind: 'product', id: 'sku-1', label: 'product main' }],
      cleanup: { removed: 1, leftovers: [] },
      notes: ['renewed'],
      runErrors: [],
    })
    expect(report.partial).toBeUndefined()
  })

  it('lists the server errors the run met, as information: every check passed, it conforms and exits 0 (a run cut short keeps them)', () => {
    const block = sampleServerErrors()
    const errors = { list: () => ({ entries: block.entries, unlisted: { 502: 3 } }) }
    const report = draftReport(record({ serverErrors: errors }), [], WHOLE, NOTHING_LEFT, FINISHED)
    expect(report.serverErrors).toMatchObject({
      answers: 6,
      statuses: { 500: 2, 502: 3, 503: 1 },
      entries: { length: 2 },
    })
    expect(report.serverErrors!.text).toBe(
      'Server errors: 6 (500 ×2, 502 ×3, 503 ×1) at 2 operations; 3 of them not listed (the list keeps 100 distinct requests) — information only, never the verdict.',
    )
    expect(serverErrorsProblems(report.serverErrors)).toEqual([])
    expect(report.certification.verdict).toBe('conforms')
    expect(report.exit).toEqual({ status: 0, reason: 'no check failed' })
    const cut = draftReport(
      record({ serverErrors: errors, stopped: 'SIGINT' }, planResults().slice(0, 3)),
      [],
      WHOLE,
      NOTHING_LEFT,
      FINISHED,
    )
    expect(cut.serverErrors!.answers).toBe(6)
    // A clean run's block says there was none.
    expect(draftReport(record(), [], WHOLE, NOTHING_LEFT, FINISHED).serverErrors).toMatchObject({
      answers: 0,
      entries: [],
      text: 'Server errors: none (no request of the run was answered 5xx).',
    })
  })

  it("keeps a crashed check's status: an error, never a failure nor a pass (exit 1)", () => {
    const results = planResults().map((r, i) =>
      i === 0
        ? { ...r, status: 'error' as const, message: 'error of the suite (…): the route check threw TypeError: x' }
        : r,
    )
    const report = draftReport(record({}, results), [], WHOLE, NOTHING_LEFT, FINISHED)
    expect(report.results.find((r) => r.id === results[0]!.id)!.status).toBe('error')
    expect(report.summary).toMatchObject({ failed: 0, errors: 1 })
    expect(report.exit.status).toBe(1)
  })

  it('of a run cut short by its deadline: partial, the run error saying so, exit 124', () => {
    const report = draftReport(
      record({ stopped: 'deadline' }, planResults().slice(0, 10)),
      [],
      WHOLE,
      NOTHING_LEFT,
      FINISHED,
    )
    expect(report.partial).toEqual({ reason: 'deadline' })
    expect(report.runErrors).toEqual([
      `the run reached its deadline (${config.runTimeoutMs} ms, cleanup and reports included) and was cut short`,
    ])
    expect(report.exit.status).toBe(124)
  })

  it('of a run interrupted during its start: no result, and not a run that could not be made (exit 130)', () => {
    const report = draftReport(record({ pre: undefined, stopped: 'SIGINT' }), [], WHOLE, NOTHING_LEFT, FINISHED)
    expect(report.results).toEqual([])
    expect(report.exit.status).toBe(130)
  })

  it('of a target the preflight refused: nothing judged, exit 2 with the reason', () => {
    const report = draftReport(
      record({ pre: undefined, runErrors: ['the admin could not sign in (401)'] }),
      [],
      WHOLE,
      NOTHING_LEFT,
      FINISHED,
    )
    expect(report.results).toEqual([])
    expect(report.exit).toEqual({ status: 2, reason: 'the run could not be made: the admin could not sign in (401)' })
  })

  it('of a target that stopped answering: an outage, never a verdict (exit 2)', () => {
    const gone = planResults().map((r, i) =>
      i === 3
        ? {
            ...r,
            status: 'skipped' as const,
            reason: 'target-gone' as const,
            message: 'not sent: the target stopped answering at http://127.0.0.1:4000, after 12 requests',
          }
        : r,
    )
    const report = draftReport(record({}, gone), [], WHOLE, NOTHING_LEFT, FINISHED)
    expect(report.partial).toEqual({ reason: 'target-gone', requests: 12 })
    expect(report.runErrors).toEqual([
      'the target stopped answering at http://127.0.0.1:4000, after 12 requests: the requests after that were not sent, and what they would have judged is not judged',
    ])
    expect(report.exit.status).toBe(2)
  })

  it("of a shard, or a slice vitest selected: its scope in the plan block, and the shard's split id", () => {
    const directory = planResults(selectionOf(['directory'], []))
    const scope: RunScope = {
      selection: { modules: ['directory'], ids: new Set(directory.slice(0, 2).map((r) => r.id)) },
      limits: ['shard 1/2', '-t /countries/'],
      shard: { index: 1, count: 2 },
    }
    const report = draftReport(record({}, directory.slice(0, 2)), [], scope, NOTHING_LEFT, FINISHED)
    expect(report.run.shard).toBe('1/2')
    expect(report.run.splitId).toMatch(/\S/)
    expect(report.plan.limitedBy).toEqual(['shard 1/2', '-t /countries/'])
    expect(report.certification.verdict).toBe('partial')
    expect(new Set(report.results.map((r) => r.module))).toEqual(new Set(['directory']))
  })

  it("of an empty shard (none of the selection's suite files): made, nothing judged, exit 0 saying so, the same split id", () => {
    const scope: RunScope = {
      selection: { modules: [], ids: new Set() },
      limits: ['shard 3/3'],
      shard: { index: 3, count: 3 },
    }
    const empty = draftReport(
      record({ pre: undefined, deadlines: undefined, emptyShard: { suiteFiles: 2 } }, []),
      [],
      scope,
      NOTHING_LEFT,
      FINISHED,
    )
    expect(empty.exit).toEqual({
      status: 0,
      reason:
        "empty shard: shard 3/3 got none of the selection's 2 suite files (the other shards run them); nothing was judged or sent to the shop",
    })
    expect(empty.certification).toMatchObject({ verdict: 'not run', scope: { selected: 0, limitedBy: ['shard 3/3'] } })
    expect(empty.run.emptyShard).toEqual({ suiteFiles: 2 })
    const sibling = draftReport(
      record(),
      [],
      { ...scope, limits: ['shard 1/3'], shard: { index: 1, count: 3 } },
      NOTHING_LEFT,
      FINISHED,
    )
    expect(empty.run.splitId).toBe(sibling.run.splitId)
  })
})
