import { describe, expect, it } from 'vitest'
import { PLAN, selectPlan } from '../plan/plan.ts'
import type { PlanBlock } from '../results/plan-block.ts'
import { MODULES } from '../spec/modules.ts'
import { certify } from './certify.ts'
import { ACL_NOT_CONFIGURED_LINE, planResults, sampleBlock, withoutLimitedAdmin } from './testing.ts'

const ALL = { plan: sampleBlock([], []) }
const suite = PLAN.checks.length

describe('certify', () => {
  it('says "conforms" only when every check of the suite was selected, judged and passed', () => {
    const c = certify({ results: planResults(), runErrors: [], ...ALL })
    expect(c).toMatchObject({ verdict: 'conforms', percent: 100, required: suite, passed: suite, notJudged: 0 })
    expect(c.scope).toEqual({
      selected: suite,
      suite,
      whole: true,
      modules: MODULES.map((m) => m.id),
      limitedBy: [],
      text: `the whole suite: ${suite} checks`,
    })
    expect(c.modules.map((m) => m.module)).toEqual(MODULES.map((m) => m.id))
    expect(c.modules.every((m) => m.verdict === 'conforms')).toBe(true)
  })

  it('calls a --module or --check slice partial, N of M, with module verdicts only for the modules it ran', () => {
    const slice = { modules: ['directory', 'eav'] }
    const c = certify({ results: planResults(slice), runErrors: [], plan: sampleBlock(slice.modules, []) })
    const n = selectPlan(PLAN, slice).checks.length
    expect(c.verdict).toBe('partial')
    expect(c.percent).toBe(100)
    expect(c.scope).toMatchObject({
      selected: n,
      suite,
      whole: false,
      limitedBy: ['--module directory,eav'],
      text: `partial: ${n} of ${suite} checks selected (--module directory,eav)`,
    })
    expect(c.modules.map((m) => [m.module, m.verdict])).toEqual([
      ['directory', 'conforms'],
      ['eav', 'conforms'],
    ])

    const access = { kinds: ['access'] }
    const a = certify({ results: planResults(access), runErrors: [], plan: sampleBlock([], access.kinds) })
    expect(a.verdict).toBe('partial')
    expect(a.scope.text).toBe(
      `partial: ${selectPlan(PLAN, access).checks.length} of ${suite} checks selected (--check access)`,
    )
    // Every module ran, but only one kind of check: no module conforms.
    expect(a.modules).toHaveLength(MODULES.length)
    expect(a.modules.every((m) => m.verdict === 'partial' && /^partial: \d+ of \d+ checks selected/.test(m.text))).toBe(
      true,
    )
    // A slice that fails does not conform: a failure is real in any slice.
    const failing = certify({
      results: planResults(slice, (_, i) => (i === 0 ? 'failed' : 'passed')),
      runErrors: [],
      plan: sampleBlock(slice.modules, []),
    })
    expect(failing.verdict).toBe('does not conform')
  })

  it('calls one shard partial: its modules are the ones it ran', () => {
    const ran = ['quote', 'cms']
    const c = certify({
      results: planResults({ modules: ran }),
      runErrors: [],
      plan: sampleBlock([], [], { modulesRun: ran, limits: ['shard 1/2'] }),
    })
    expect(c.verdict).toBe('partial')
    expect(c.scope.limitedBy).toEqual(['shard 1/2'])
    expect(c.scope.modules).toEqual(['cms', 'quote'])
    expect(c.modules.map((m) => m.module)).toEqual(['cms', 'quote'])
    // A shard that got no module selected nothing, not everything.
    const empty = certify({
      results: [],
      runErrors: [],
      plan: sampleBlock([], [], { modulesRun: [], limits: ['shard 24/24'] }),
    })
    expect(empty.scope.selected).toBe(0)
    expect(empty.verdict).toBe('not run')
  })

  it('counts a selected check without a result as not judged: a run cut short never conforms', () => {
    const results = planResults().slice(0, 46)
    const c = certify({ results, runErrors: [], ...ALL })
    expect(c.verdict).toBe('incomplete')
    expect(c.notJudged).toBe(suite - 46)
    expect(c.percent).toBe(Math.floor((46 / suite) * 1000) / 10)
  })

  it('says a rule left unjudged for a missing setting is not configured, and how to judge it; such a run never conforms', () => {
    const c = certify({ results: withoutLimitedAdmin(), runErrors: [], ...ALL })
    expect(c).toMatchObject({ verdict: 'incomplete', notJudged: 15, failed: 0, passed: suite - 15 })
    expect(c.notConfigured).toEqual([{ check: 'acl', count: 15, text: ACL_NOT_CONFIGURED_LINE }])
    expect(ACL_NOT_CONFIGURED_LINE).toMatch(
      /^acl — 15 checks not judged: .*set SHOP_LIMITED_ADMIN_USERNAME, SHOP_LIMITED_ADMIN_PASSWORD and SHOP_LIMITED_ADMIN_RESOURCES to judge it/,
    )
    expect(certify({ results: planResults(), runErrors: [], ...ALL }).notConfigured).toEqual([])
  })

  it('is incomplete with a run error, an unjudged check or a baselined failure; not run with nothing judged', () => {
    expect(certify({ results: planResults(), runErrors: ['calibration failed'], ...ALL }).verdict).toBe('incomplete')
    expect(
      certify({ results: planResults(undefined, (_, i) => (i === 3 ? 'skipped' : 'passed')), runErrors: [], ...ALL })
        .verdict,
    ).toBe('incomplete')
    const failing = planResults(undefined, (_, i) => (i === 3 ? 'failed' : 'passed'))
    const excused = certify({ results: failing, runErrors: [], ...ALL, baselined: new Set([failing[3]!.id]) })
    expect(excused).toMatchObject({ verdict: 'incomplete', failed: 0, baselined: 1 })
    expect(certify({ results: failing, runErrors: [], ...ALL }).verdict).toBe('does not conform')
    expect(certify({ results: [], runErrors: ['target unreachable'], ...ALL }).verdict).toBe('not run')
  })

  it("counts only the spec's checks: an extension's selected checks and their results are not the certification's", () => {
    const extension: PlanBlock = {
      ...ALL.plan,
      suite: [...ALL.plan.suite, { module: 'quote', origin: 'extension', checks: 2 }],
      selected: [
        ...ALL.plan.selected,
        { id: 'GET /V1/vendor/thing › route', module: 'quote', origin: 'extension' },
        { id: 'GET /V1/vendor/other › route', module: 'quote', origin: 'extension' },
      ],
    }
    const failedExtension = { ...planResults()[0]!, id: 'GET /V1/vendor/thing › route', status: 'failed' as const }
    const c = certify({ results: [...planResults(), failedExtension], runErrors: [], plan: extension })
    expect(c).toMatchObject({ verdict: 'conforms', required: suite, passed: suite, failed: 0 })
    expect(c.scope).toMatchObject({ selected: suite, suite, whole: true })
  })
})
