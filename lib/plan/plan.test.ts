import { describe, expect, it } from 'vitest'
import { extensionKinds, extensionRow } from '../checks/extension.ts'
import { CHECKS } from '../checks/index.ts'
import { resultId } from '../results/result.ts'
import { CATALOG, rowId, rowsOfModule } from '../spec/catalog/index.ts'
import { MODULES } from '../spec/modules.ts'
import { WORKFLOWS } from '../workflows/index.ts'
import {
  buildPlan,
  flagLimits,
  notApplicableResults,
  PLAN,
  planBlock,
  selectionOf,
  selectPlan,
  SUITE,
  suiteWith,
  type PlanKind,
  type PlanRow,
} from './plan.ts'
import { plannedRequests } from './requests.ts'
import { endpointText } from '../spec/endpoint-id.ts'

describe('the plan', () => {
  it('has every row × kind once, planned or unplanned with why, and every workflow step', () => {
    const ids = [...PLAN.checks, ...PLAN.unplanned].map((p) => p.id)
    expect(new Set(ids).size).toBe(ids.length)
    const endpointIds = CATALOG.flatMap((row) => CHECKS.map((c) => resultId(row, c.name)))
    const steps = WORKFLOWS.flatMap((w) => w.steps.length)
    expect(ids.length).toBe(endpointIds.length + steps.reduce((a, b) => a + b, 0))
    for (const u of PLAN.unplanned) {
      expect(u.why).toBe('not-applicable')
      expect(u.reason).toBe(
        CHECKS.find((c) => c.name === u.kind)!.appliesTo(CATALOG.find((r) => rowId(r) === u.endpoint)!),
      )
    }
    expect(PLAN.checks.every((p) => p.origin === 'spec')).toBe(true)
  })

  it('gives stable ids: `<METHOD> <path> › <check>` and `workflow <name> › <nn> <title>`', () => {
    expect(PLAN.checks[0]).toEqual({
      id: `${rowId(CATALOG[0]!)} › route`,
      module: CATALOG[0]!.module,
      kind: 'route',
      endpoint: rowId(CATALOG[0]!),
      origin: 'spec',
    })
    expect(PLAN.checks.find((p) => p.id === 'POST /V1/products/base-prices › batch-partial')).toMatchObject({
      module: 'catalog-prices',
      kind: 'batch-partial',
    })
    const w = WORKFLOWS[0]!
    expect(
      PLAN.checks.filter((p) => p.kind === 'workflow' && p.id.startsWith(`workflow ${w.name} › `)).map((p) => p.id),
    ).toEqual(w.steps.map((s, i) => `workflow ${w.name} › ${String(i + 1).padStart(2, '0')} ${s.title}`))
  })

  it('puts a kind whose setting the run lacks in unplanned, not configured, with what it lacks', () => {
    const without = buildPlan(SUITE, { limitedAdmin: false })
    const acl = without.unplanned.filter((u) => u.why === 'not-configured')
    expect(acl.map((u) => u.kind)).toEqual(Array(15).fill('acl'))
    expect(acl[0]!.reason).toMatch(/^not configured: .*SHOP_LIMITED_ADMIN_USERNAME/)
    expect(without.checks.length).toBe(PLAN.checks.length - 15)
    expect(buildPlan(SUITE, { limitedAdmin: true }).checks).toEqual(PLAN.checks)
  })

  it('selects by module, kind and id; an empty list selects nothing, an absent one everything', () => {
    const quote = selectPlan(PLAN, { modules: ['quote'], kinds: ['access', 'workflow'] })
    expect(quote.checks.length).toBeGreaterThan(0)
    expect(quote.checks.every((p) => p.module === 'quote' && (p.kind === 'access' || p.kind === 'workflow'))).toBe(true)
    expect(selectPlan(PLAN, { modules: [] }).checks).toEqual([])
    expect(selectPlan(PLAN, {}).checks).toEqual(PLAN.checks)
    const one = new Set(['POST /V1/products/base-prices › batch-partial'])
    expect(selectPlan(PLAN, { ids: one }).checks.map((p) => p.id)).toEqual([...one])
    expect(selectionOf([], [])).toEqual({})
  })

  it("takes rows and kinds of other origins beside the spec's: each kind judges the rows of its own origin", () => {
    const extension = extensionRow({
      method: 'GET',
      path: '/V1/vendor/things',
      declaredAccess: 'admin',
      writes: false,
      origin: 'extension',
    })
    const vendorRow: PlanRow = {
      method: 'GET',
      path: '/V1/vendor/widgets',
      module: 'vendor-widgets',
      access: 'anon',
      sections: [],
      origin: 'vendor',
    }
    const vendorKind: PlanKind = {
      name: 'widget-count',
      description: 'd',
      spec: [],
      rules: [],
      origin: 'vendor',
      appliesTo: () => true,
      run: () => Promise.resolve({ status: 'passed', message: '', exchanges: [] }),
    }
    const plan = buildPlan({
      ...SUITE,
      rows: [...SUITE.rows, extension, vendorRow],
      kinds: [...SUITE.kinds, ...extensionKinds({ probeWrites: false }), vendorKind],
    })
    expect(plan.checks.filter((p) => p.origin === 'extension').map((p) => p.id)).toEqual([
      'GET /V1/vendor/things › extension-route',
      'GET /V1/vendor/things › extension-store-code',
      'GET /V1/vendor/things › extension-access',
    ])
    expect(plan.checks.filter((p) => p.origin === 'vendor').map((p) => p.id)).toEqual([
      'GET /V1/vendor/widgets › widget-count',
    ])
    // The spec's checks as before: none of the other origins' kinds reaches a spec row, nor a spec kind theirs.
    expect(plan.checks.filter((p) => p.origin === 'spec')).toEqual(PLAN.checks)
    expect(plan.unplanned).toEqual(PLAN.unplanned)
    expect(planBlock(plan, {}, []).suite).toContainEqual({ module: 'extensions', origin: 'extension', checks: 3 })
  })

  it("adds a run's extension operations and a vendor's set to the spec's suite, the spec's part unchanged", () => {
    const op = {
      method: 'PUT' as const,
      path: '/V1/vendor/switch',
      declaredAccess: 'admin' as const,
      writes: true,
      origin: 'extension' as const,
    }
    const plan = buildPlan(suiteWith({ operations: [op] }))
    expect(plan.checks.filter((p) => p.origin !== 'spec').map((p) => p.kind)).toEqual([
      'extension-route',
      'extension-store-code',
      'extension-access',
    ])
    expect(plan.checks.filter((p) => p.origin === 'spec')).toEqual(PLAN.checks)
    expect(suiteWith({})).toEqual(SUITE)
  })

  it("records what a run selected as data (the report's plan block), and what narrowed it", () => {
    const block = planBlock(PLAN, selectionOf(['directory'], ['access']), flagLimits(PLAN, ['directory'], ['access']))
    expect(block.selected.map((s) => s.id)).toEqual(rowsOfModule('directory').map((r) => resultId(r, 'access')))
    expect(block.modules).toEqual(['directory'])
    expect(block.limitedBy).toEqual(['--module directory', '--check access'])
    expect(block.kinds.map((k) => k.name)).toEqual([...CHECKS.map((c) => c.name), 'workflow'])
    expect(block.suite.reduce((n, s) => n + s.checks, 0)).toBe(PLAN.checks.length)
    expect(
      flagLimits(
        PLAN,
        MODULES.map((m) => m.id),
        [],
      ),
    ).toEqual([])
  })

  it('gives the not-applicable results from unplanned, with why', () => {
    const results = notApplicableResults(selectPlan(PLAN, { modules: ['directory'] }), (p) => p)
    expect(results.length).toBe(PLAN.unplanned.filter((u) => u.module === 'directory').length)
    expect(results.every((r) => r.applicable === false && r.status === 'skipped' && r.message !== '')).toBe(true)
  })
})

describe('the planned requests (requests.ts)', () => {
  const settings = {
    readOnly: false,
    limitedAdmin: { username: 'clerk', resources: [] },
    customer: { reads: true, writes: true },
  }
  const plan = selectPlan(PLAN, { modules: ['quote', 'integration'] })
  const planned = plannedRequests(plan, SUITE, settings)

  it('list each call once, with every kind that reads it', () => {
    const keys = planned.calls.map(
      (c) => `${endpointText(c.planned.call)} ${c.planned.request.caller} ${c.planned.request.store}`,
    )
    expect(new Set(keys).size).toBe(keys.length)
    // The anonymous caller's call of an anonymous endpoint serves three kinds; a restricted endpoint's call under the
    // configured store code is its valid request, not a placeholder call.
    expect(
      planned.calls.find(
        (p) => p.row.access === 'anon' && p.planned.request.caller === 'none' && p.planned.request.store === 'first',
      )!.kinds,
    ).toEqual(['route', 'store-code', 'access'])
    expect(
      planned.calls.find(
        (p) =>
          p.row.access === 'admin' &&
          p.planned.request.caller === 'admin' &&
          p.planned.request.store === 'first' &&
          p.kinds.includes('route'),
      ),
    ).toBeUndefined()
  })

  it("list a restricted endpoint's valid request once, as its callers in order, read by route, store-code, access and acl", () => {
    const sequence = (method: string, template: string) =>
      planned.sequences.find((s) => s.sequence.template === template && s.sequence.method === method)
    expect(sequence('GET', '/V1/carts/:cartId')).toMatchObject({
      sequence: { groups: [['none', 'malformed', 'customer'], ['admin']], again: 'reuse' },
      kinds: ['route', 'store-code', 'access'],
    })
    expect(sequence('DELETE', '/V1/carts/:cartId/items/:itemId')).toMatchObject({
      sequence: { groups: [['none', 'malformed', 'customer'], ['limited admin'], ['admin']], again: 'fresh' },
      kinds: ['route', 'store-code', 'access', 'acl'],
    })
    expect(sequence('PUT', '/V1/carts/mine/items/:itemId')!.sequence).toMatchObject({
      groups: [['none', 'malformed', 'other customer'], ['customer']],
      witness: 'customer',
    })
    // No valid request can be made: the fallback's placeholder calls are what is sent, and at a `mine` write the
    // admin's request of data the shop refuses (issue 29.5).
    const all = plannedRequests(PLAN, SUITE, settings)
    expect(all.sequences.find((s) => s.sequence.template === '/V1/carts/mine/payment-order')).toBeUndefined()
    const paymentOrder = all.calls.filter((c) => c.planned.call.path === '/V1/carts/mine/payment-order')
    expect(paymentOrder.map((c) => `${c.planned.request.caller}@${c.planned.request.store}`)).toEqual([
      'none@first',
      'malformed@first',
      'customer@first',
      'customer@second',
      'admin@first',
    ])
    expect(paymentOrder.at(-1)!.planned.call.body).toMatchObject({ methodCode: expect.any(Object) })
  })
})
