/**
 * Judging a planned check without vitest's runner (issue 24.3): every planned check of the suite finds what
 * judges it, a check from outside the spec says so in its result, a check's crash is its own status (`error`,
 * never the shop's failure), a write refused in read-only mode is "not judged", and a workflow's steps settle
 * one by one. On a stand-in session: no target, no request.
 */
import { describe, expect, it } from 'vitest'
import { CHECK_KINDS, CHECKS } from '../checks/index.ts'
import type { Check } from '../checks/types.ts'
import { vendorParts } from '../extend/load.ts'
import { PLAN, SUITE, suiteWith, type PlannedCheck } from '../plan/plan.ts'
import { Secrets } from '../shop/secrets.ts'
import { ReadOnlyViolation, type Session } from '../shop/session.ts'
import { findRow, rowId } from '../spec/catalog/index.ts'
import type { Workflow } from '../workflows/types.ts'
import { judgeCheck, judgeWorkflow, plannedWork } from './judge-planned.ts'

/** Enough of a session for checks and steps that send nothing. */
function standIn(): Session {
  const session = {
    targetPath: (p: string) => p.replace('/V1/', '/V1/alias/'),
    secrets: new Secrets(),
    seed: { builderSeed: 1, runId: 'unit', concurrency: 1 },
  } as unknown as Session & { base: Session }
  session.base = session
  return session
}

const ROW = findRow('GET', '/V1/directory/countries')!
const passing: Check = { ...CHECKS[0]!, run: () => Promise.resolve({ status: 'passed', message: 'ok', exchanges: [] }) }

describe('the work of planned checks', () => {
  it("has a starter for every planned check of the spec's suite, workflow steps included, and for nothing else", () => {
    const starters = plannedWork(SUITE, PLAN.checks)
    expect([...starters.keys()].sort()).toEqual(PLAN.checks.map((p) => p.id).sort())
  })

  it('refuses a planned check whose row or kind its parts lack (a plan and parts that disagree)', () => {
    const stray: PlannedCheck = { id: 'GET /V1/nowhere › route', module: 'directory', kind: 'route', origin: 'spec' }
    expect(() => plannedWork(SUITE, [stray])).toThrow(
      "GET /V1/nowhere › route: planned, but its row is not among the plan's parts",
    )
    expect(() => plannedWork(SUITE, [{ ...stray, endpoint: rowId(ROW), kind: 'telepathy' }])).toThrow(
      'its check kind is not among',
    )
  })

  it("judges a vendor's check as the vendor's: its result carries the origin and is not the spec's", async () => {
    const config = {
      endpoints: [{ method: 'GET', path: '/V1/ref-example/warehouses', access: 'admin', module: 'vendor-warehouses' }],
      checks: [
        {
          name: 'warehouse-stock',
          description: 'd',
          run: () => Promise.resolve({ status: 'failed', message: 'no stock', exchanges: [] }),
        },
      ],
    }
    const vendor = vendorParts(config, 'x.config.ts', CHECK_KINDS)
    const parts = suiteWith({ vendor })
    const planned: PlannedCheck = {
      id: 'GET /V1/ref-example/warehouses › warehouse-stock',
      module: 'vendor-warehouses',
      kind: 'warehouse-stock',
      added: vendor.rows[0]!,
      origin: 'vendor',
    }
    const result = await plannedWork(parts, [planned]).get(planned.id)!(standIn())()
    expect(result).toMatchObject({
      id: planned.id,
      status: 'failed',
      message: 'no stock',
      origin: 'vendor',
      extension: true,
    })
  })
})

describe('a check judged', () => {
  it("is its result, under the target's own path where an alias applies", async () => {
    const r = await judgeCheck(standIn(), ROW, passing)
    expect(r).toMatchObject({
      id: 'GET /V1/directory/countries › route',
      status: 'passed',
      endpoint: { method: 'GET', path: '/V1/directory/countries', alias: '/V1/alias/directory/countries' },
    })
    expect(r.origin).toBeUndefined()
  })

  it('is an error of the suite when its code throws: its own status, neither failed nor passed', async () => {
    const r = await judgeCheck(standIn(), ROW, {
      ...passing,
      run: () => Promise.reject(new RangeError('off the end')),
    })
    expect(r.status).toBe('error')
    expect(r.message).toMatch(
      /^error of the suite \(a bug of the suite, not a finding about the shop\): the route check threw RangeError: off the end/,
    )
  })

  it('is not judged when it needed a write that read-only mode refused', async () => {
    const r = await judgeCheck(standIn(), ROW, {
      ...passing,
      run: () => Promise.reject(new ReadOnlyViolation('POST /V1/carts is a write')),
    })
    expect(r).toMatchObject({
      status: 'skipped',
      reason: 'read-only',
      message: 'not judged: POST /V1/carts is a write',
    })
  })
})

describe('a workflow judged', () => {
  const workflow: Workflow = {
    name: 'unit-flow',
    module: 'directory',
    description: 'd',
    spec: [],
    steps: [
      {
        title: 'first',
        endpoint: rowId(ROW),
        run: () => Promise.resolve({ status: 'passed', message: 'ok', exchanges: [] }),
      },
      {
        title: 'second',
        run: () => Promise.reject(new ReadOnlyViolation('PUT /V1/carts/mine is a write')),
      },
      { title: 'third', run: () => Promise.resolve({ status: 'passed', message: 'never reached', exchanges: [] }) },
    ],
  }

  it('settles each step as a result of its own, a step after one not judged not run', async () => {
    const results = await Promise.all(judgeWorkflow(standIn(), workflow))
    expect(results.map((r) => [r.id, r.status, r.reason])).toEqual([
      ['workflow unit-flow › 01 first', 'passed', undefined],
      ['workflow unit-flow › 02 second', 'skipped', 'read-only'],
      ['workflow unit-flow › 03 third', 'skipped', 'earlier-step'],
    ])
    expect(results[0]!.endpoint).toEqual({ method: 'GET', path: '/V1/directory/countries' })
  })

  it('errs in every step still to settle when the run of its steps itself breaks', async () => {
    const broken: Workflow = {
      ...workflow,
      steps: [
        {
          title: 'only',
          run: () => {
            throw new Error('not even a promise')
          },
        },
      ],
    }
    await expect(judgeWorkflow(standIn(), broken)[0]).rejects.toThrow('not even a promise')
  })
})
