/**
 * The workflow registry: each workflow named once, in a module of the spec, with steps each titled once and at a
 * catalog row. Running them against the reference target: workflows.test.ts.
 */
import { describe, expect, it } from 'vitest'
import { MODULES } from '../spec/modules.ts'
import { WORKFLOWS } from './index.ts'

describe('the workflow registry', () => {
  it('names each workflow once, in a module of the spec, with steps', () => {
    const names = WORKFLOWS.map((w) => w.name)
    expect(new Set(names).size).toBe(names.length)
    expect(names).toEqual(
      expect.arrayContaining([
        'credit-memo',
        'invoice-refund',
        'guest-checkout',
        'attribute-set',
        'tier-prices-by-group',
        'order-address',
        'catalog-reads',
        'customer-group-default',
        'tax-rate',
        'shipment-label',
        'mine-isolation',
      ]),
    )
    for (const w of WORKFLOWS) {
      expect(
        MODULES.map((m) => m.id),
        w.name,
      ).toContain(w.module)
      expect(w.steps.length, w.name).toBeGreaterThan(0)
      expect(w.spec.length, w.name).toBeGreaterThan(0)
    }
  })

  it("gives every step a unique title (a step's endpoint is a catalog row's id: endpointId throws for any other)", () => {
    for (const w of WORKFLOWS) {
      const titles = w.steps.map((s) => s.title)
      expect(new Set(titles).size, w.name).toBe(titles.length)
    }
  })
})
