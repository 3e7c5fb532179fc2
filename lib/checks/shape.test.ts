import { afterAll, describe, expect, it } from 'vitest'
import { FAULTS, startReferenceTarget, type FaultName, type FaultSwitch } from '../../reference-target/index.ts'
import { CATALOG, findRow } from '../spec/catalog/index.ts'
import type { Session } from '../shop/session.ts'
import { scenarioOf } from '../setup/families/index.ts'
import { missingValues } from './carried-values.ts'
import { shapeCheck } from './shape.ts'
import { byStatus, openSession, runOverCatalog } from './testing.ts'
import { endpointText } from '../spec/endpoint-id.ts'

const SHAPE_ROWS = CATALOG.filter((r) => shapeCheck.appliesTo(r) === true)

describe('shape check', () => {
  const closers: (() => Promise<void>)[] = []
  afterAll(async () => {
    for (const close of closers.reverse()) await close()
  })
  async function against(faults: FaultSwitch[] = []): Promise<Session> {
    const target = await startReferenceTarget({ faults })
    closers.push(() => target.close())
    const s = await openSession(target)
    closers.push(() => s.close())
    return s
  }

  it('applies to every endpoint whose response the spec gives, each with a scenario; others are "not shown"', () => {
    expect(SHAPE_ROWS).toHaveLength(19)
    for (const row of SHAPE_ROWS) expect(scenarioOf(row), endpointText(row)).toBeDefined()
    expect(shapeCheck.appliesTo(findRow('GET', '/V1/carts/:cartId')!)).toMatch(/^not shown: /)
  })

  it('passes every such endpoint of the clean reference target', async () => {
    const verdicts = await runOverCatalog(shapeCheck, await against(), SHAPE_ROWS)
    expect(byStatus(verdicts)).toMatchObject({ failed: [], skipped: [] })
    expect(verdicts.get('GET /V1/creditmemo/:id')!.message).toMatch(/^the answer is CreditmemoInterface/)
  })

  it('fails {} at a detail-table read (the empty-object fault), where absent fields used to pass one by one, and at a credit memo read too', async () => {
    const verdicts = await runOverCatalog(shapeCheck, await against([{ name: 'empty-object' }, { name: 'empty-object', method: 'GET', path: '/V1/creditmemo/:id' }]), SHAPE_ROWS)
    expect(byStatus(verdicts)).toMatchObject({ failed: ['GET /V1/creditmemo/:id', 'GET /V1/taxRates/:rateId'], skipped: [] })
    expect(verdicts.get('GET /V1/taxRates/:rateId')!.message).toBe('the answer is not TaxRateInterface: (root): object {} carries no value at all: an empty object is no TaxRateInterface')
    expect(verdicts.get('GET /V1/creditmemo/:id')!.message).toMatch(/^the answer is not CreditmemoInterface: \(root\): object \{\} carries none of the fields the spec tables/)
  })

  it('names its first few mismatches and how many more; the result\'s details list them all', async () => {
    const s = await against([{ name: 'number-as-string' }])
    const v = await shapeCheck.run(findRow('GET', '/V1/creditmemo/:id')!, s)
    const all = (v.details as { mismatches: string[] }).mismatches
    expect(all.length).toBeGreaterThan(40)
    expect(all[0]).toBe('/adjustment: expected number, got string "0.0000"')
    expect(v.message).toBe(`the answer is not CreditmemoInterface: ${all.slice(0, 5).join('; ')} (and ${all.length - 5} more)`)
  })

  it('requires a read of the run\'s own entity to carry its id, and a saved resource the values the call set, quoting the rule', async () => {
    const verdicts = await runOverCatalog(shapeCheck, await against(), SHAPE_ROWS)
    for (const [id, words] of [
      ['GET /V1/creditmemo/:id', 'CreditmemoRepositoryInterface::get — loads a credit memo'],
      ['GET /V1/carts/:cartId/billing-address', 'BillingAddressManagementInterface::get — billing address of a quote'],
      ['PUT /V1/eav/attribute-sets/:attributeSetId', 'AttributeSetInterface (saved set)'],
      ['PUT /V1/orders/:parent_id', 'OrderAddressRepositoryInterface::save'],
    ]) {
      expect(verdicts.get(id!)!.status, id).toBe('passed')
      expect(verdicts.get(id!)!.rules!.flatMap((r) => r.specWords), id).toContain(words)
    }
  })

  it('compares what a save set as the platform normalises it: numbers as numbers or digit strings', () => {
    expect(missingValues({ attribute_set_id: '12', attribute_set_name: 'A', sort_order: 5.0 }, { attribute_set_id: 12, attribute_set_name: 'A', sort_order: '5' })).toEqual([])
    expect(missingValues({ street: ['1 Main St'], postcode: 78701, region_id: null }, { street: ['1 Main St'], postcode: '78701', region_id: null, extension_attributes: { x: 1 } })).toEqual([])
    expect(missingValues({ attribute_set_name: 'B' }, { attribute_set_id: 12, attribute_set_name: 'A' })).toEqual(['no attribute_set_id (expected number 12)', 'attribute_set_name string "B" where string "A" was expected'])
    expect(missingValues({ street: '1 Main St' }, { street: ['1 Main St'] })).toEqual(['street string "1 Main St" where array ["1 Main St"] was expected'])
    expect(missingValues([], { id: 1 })).toEqual(['the answer is array [], not an object'])
  })

  const faults = (Object.keys(FAULTS) as FaultName[]).filter((f) => FAULTS[f].breaks === 'shape')
  it('has a fault switch for each kind of deviation', () => expect([...faults].sort()).toEqual(['array-as-object', 'empty-object', 'number-as-string', 'wrong-return-type']))
  for (const fault of faults) {
    it(`fails only the endpoint the ${fault} fault breaks, naming the field`, async () => {
      const { method, path } = FAULTS[fault].defaultEndpoint
      const verdicts = await runOverCatalog(shapeCheck, await against([{ name: fault }]), SHAPE_ROWS)
      expect(byStatus(verdicts)).toMatchObject({ failed: [endpointText({ method, path })], skipped: [] })
      expect(verdicts.get(endpointText({ method, path }))!.message).toMatch(/^the answer is not .*: .*(expected|carries no value at all)/)
    })
  }
})
