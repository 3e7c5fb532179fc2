/**
 * The shape check's rows, fault switches and judgements on the answers it is handed — made up, or a real 2.4.7
 * instance's credit memo: no target. Its runs against the reference target, clean and under a fault
 * switch: shape.test.ts.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { findRow } from '../spec/catalog/index.ts'
import { scenarioOf } from '../setup/families/index.ts'
import { missingValues } from './carried-values.ts'
import { judgeShapeAnswer, shapeCheck } from './shape.ts'
import { SHAPE_RULES } from '../spec/rules.ts'
import type { Outcome } from '../shop/request.ts'
import { faultsBreaking, rowsJudgedBy } from './testing.ts'
import { endpointText } from '../spec/endpoint-id.ts'
import { readRealRun } from './testing-real-runs.ts'
import { readingOf, recordedProbe } from '../shop/recorded.ts'

/** A real 2.4.7 instance's answer to a credit memo read (observation creditmemo-order-refund-with-arguments). */
const CREDITMEMO = (
  JSON.parse(
    readFileSync(
      new URL(
        '../../fixtures/observations/responses-2.4.7/creditmemo-order-refund-with-arguments.json',
        import.meta.url,
      ),
      'utf8',
    ),
  ) as { response: { body: Record<string, unknown> } }
).response.body
const answered = (body: unknown, status = 200): Pick<Outcome, 'answer'> => ({
  answer: { status, headers: {}, body, json: true, text: JSON.stringify(body) },
})
const CREDITMEMO_READ = findRow('GET', '/V1/creditmemo/:id')!

const SHAPE_ROWS = rowsJudgedBy(shapeCheck)

describe('shape check', () => {
  it('applies to every endpoint whose response the spec gives, each with a scenario; others are "not shown"', () => {
    expect(SHAPE_ROWS).toHaveLength(19)
    for (const row of SHAPE_ROWS) expect(scenarioOf(row), endpointText(row)).toBeDefined()
    expect(shapeCheck.appliesTo(findRow('GET', '/V1/carts/:cartId')!)).toMatch(/^not shown: /)
  })

  it('compares what a save set as the platform normalises it: numbers as numbers or digit strings', () => {
    expect(
      missingValues(
        { attribute_set_id: '12', attribute_set_name: 'A', sort_order: 5.0 },
        { attribute_set_id: 12, attribute_set_name: 'A', sort_order: '5' },
      ),
    ).toEqual([])
    expect(
      missingValues(
        { street: ['1 Main St'], postcode: 78701, region_id: null },
        { street: ['1 Main St'], postcode: '78701', region_id: null, extension_attributes: { x: 1 } },
      ),
    ).toEqual([])
    expect(missingValues({ attribute_set_name: 'B' }, { attribute_set_id: 12, attribute_set_name: 'A' })).toEqual([
      'no attribute_set_id (expected number 12)',
      'attribute_set_name string "B" where string "A" was expected',
    ])
    expect(missingValues({ street: '1 Main St' }, { street: ['1 Main St'] })).toEqual([
      'street string "1 Main St" where array ["1 Main St"] was expected',
    ])
    expect(missingValues([], { id: 1 })).toEqual(['the answer is array [], not an object'])
  })

  it('has a fault switch for each kind of deviation', () =>
    expect([...faultsBreaking('shape')].sort()).toEqual([
      'array-as-object',
      'empty-object',
      'number-as-string',
      'server-error',
      'server-error-json',
      'wrong-return-type',
    ]))

  it("passes a real instance's credit memo, and fails {} where absent fields used to pass one by one", () => {
    expect(judgeShapeAnswer(CREDITMEMO_READ, answered(CREDITMEMO))).toMatchObject({
      status: 'passed',
      message: expect.stringMatching(/^the answer is CreditmemoInterface/),
    })
    expect(judgeShapeAnswer(findRow('GET', '/V1/taxRates/:rateId')!, answered({})).message).toBe(
      'the answer is not TaxRateInterface: (root): object {} carries no value at all: an empty object is no TaxRateInterface',
    )
    expect(judgeShapeAnswer(CREDITMEMO_READ, answered({})).message).toMatch(
      /^the answer is not CreditmemoInterface: \(root\): object \{\} carries none of the fields the spec tables/,
    )
  })

  it("names its first few mismatches and how many more; the result's details list them all", () => {
    const strings = Object.fromEntries(
      Object.entries(CREDITMEMO).map(([k, v]) => [k, typeof v === 'number' ? String(v.toFixed(4)) : v]),
    )
    const v = judgeShapeAnswer(CREDITMEMO_READ, answered(strings))
    const all = (v.details as { mismatches: string[] }).mismatches
    expect(all.length).toBeGreaterThan(20)
    expect(all).toContain('/adjustment: expected number, got string "1.0000"')
    expect(v.message).toBe(
      `the answer is not CreditmemoInterface: ${all.slice(0, 5).join('; ')} (and ${all.length - 5} more)`,
    )
  })

  it("requires a read of the run's own entity to carry its id, quoting the rule; judges nothing on a refusal or no answer", () => {
    const carries = { values: { entity_id: 1 }, rule: SHAPE_RULES.createdId }
    const v = judgeShapeAnswer(CREDITMEMO_READ, answered(CREDITMEMO), carries)
    expect(v.status).toBe('passed')
    expect(v.rules!.flatMap((r) => r.specWords)).toContain('CreditmemoRepositoryInterface::get — loads a credit memo')
    expect(
      judgeShapeAnswer(CREDITMEMO_READ, answered(CREDITMEMO), { ...carries, values: { entity_id: 2 } }),
    ).toMatchObject({
      status: 'failed',
      message: expect.stringMatching(
        /^the answer \(CreditmemoInterface\) does not carry what it must \(a read of a credit memo the run created carries that credit memo's `entity_id`\): entity_id /,
      ),
    })
    expect(judgeShapeAnswer(CREDITMEMO_READ, answered({ message: 'x' }, 404))).toMatchObject({
      status: 'skipped',
      reason: 'target-refused',
    })
    expect(judgeShapeAnswer(CREDITMEMO_READ, { failure: { kind: 'timeout', message: 'timeout' } })).toMatchObject({
      status: 'skipped',
      reason: 'timeout',
    })
  })

  // Issue 29: the 17 rows of the detail table define their request; no other row's body or read is the spec's.
  it('fails a server error to a call the detail table documents, and judges none to a request it does not table', () => {
    const platform = answered(
      { message: 'Internal Error. Details are available in Magento log file. Report ID: webapi-6b0bb8ac94d3c' },
      500,
    )
    // A read of the table without a body: the shape check is its detail check.
    expect(judgeShapeAnswer(findRow('GET', '/V1/taxRates/:rateId')!, platform)).toMatchObject({
      status: 'failed',
      message: expect.stringMatching(
        /^the documented call answered a server error \(500 .*Report ID: webapi-6b0bb8ac94d3c"\), not TaxRateInterface$/,
      ),
      rules: [SHAPE_RULES.types, SHAPE_RULES.resource],
    })
    expect(
      judgeShapeAnswer(findRow('DELETE', '/V1/carts/:cartId/items/:itemId')!, answered('Internal Error', 503)),
    ).toMatchObject({
      status: 'skipped',
      reason: 'server-error',
      message: expect.stringMatching(/service unavailable.*no answer of the shop's application/),
    })
    // A body of the table's: the body-keys check fails it, this one does not judge it twice.
    expect(judgeShapeAnswer(findRow('PUT', '/V1/orders/:parent_id')!, platform)).toMatchObject({
      status: 'skipped',
      reason: 'server-error',
      message: expect.stringMatching(/the body-keys check judges a server error to the documented call/),
    })
    // A read whose answer the spec names but whose request it does not table.
    expect(judgeShapeAnswer(CREDITMEMO_READ, platform)).toMatchObject({
      status: 'skipped',
      reason: 'server-error',
      message: expect.stringMatching(/the spec does not table this request/),
    })
  })

  // Issue 31.15: a real 2.4.7-p7 does not serve the stock media list; its valid call got the no-route answer, which
  // said "target-refused" (the call refused) where the route is missing — the route check's finding.
  it('reads the no-route answer to the valid call as the route missing, not the call refused (a real 2.4.7-p7)', () => {
    const run = readRealRun('2.4.7-p7/report-full-valid-probes.json')
    const recorded = run.results.find((r) => r.id === 'GET /V1/stockmedia/asset/list › shape')!
    const probe = recordedProbe(recorded.exchanges[0]!, readingOf(run.calibration)).probe
    expect(probe.noRoute).toBe(true)
    const v = judgeShapeAnswer(
      findRow('GET', '/V1/stockmedia/asset/list')!,
      { answer: probe.answer! },
      undefined,
      probe.noRoute,
    )
    expect(v).toMatchObject({
      status: 'skipped',
      reason: 'route-missing',
      message:
        'not judged: the valid call got the target\'s no-route answer (404 "Request does not match any route."): the endpoint is not served (see the route check)',
    })
    // Another refusal of the call stays the call refused.
    expect(judgeShapeAnswer(findRow('GET', '/V1/stockmedia/asset/list')!, { answer: probe.answer! })).toMatchObject({
      reason: 'target-refused',
    })
  })
})
