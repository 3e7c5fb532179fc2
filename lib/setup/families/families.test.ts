import { describe, expect, it } from 'vitest'
import { bodyKeysCheck } from '../../checks/body-keys.ts'
import { shapeCheck } from '../../checks/shape.ts'
import { CATALOG, rowId, rowNamed } from '../../spec/catalog/index.ts'
import { conventionsOf, FAMILIES, scenarioOf } from './index.ts'

describe('endpoint families', () => {
  it('every scenario and convention is of a catalog row that names its family', () => {
    for (const [name, family] of Object.entries(FAMILIES)) {
      expect(family.name).toBe(name)
      const endpoints = [...family.scenarios.map((s) => s.endpoint), ...Object.keys(family.conventions ?? {})]
      // Both are made from catalog rows (endpointId throws for any other): each must be a row of this family.
      for (const endpoint of endpoints) expect(rowNamed(endpoint)?.family, endpoint).toBe(name)
    }
  })

  it('every row that names a family gets a scenario or a convention from it', () => {
    for (const row of CATALOG.filter((r) => r.family !== undefined)) {
      expect(scenarioOf(row) !== undefined || Object.keys(conventionsOf(row)).length > 0, rowId(row)).toBe(true)
    }
  })

  it('every row a check needs a valid call of names a family with its scenario', () => {
    const needing = CATALOG.filter((r) => shapeCheck.appliesTo(r) === true || bodyKeysCheck.appliesTo(r) === true)
    expect(needing.length).toBeGreaterThan(0)
    for (const row of needing) expect(scenarioOf(row)?.endpoint, rowId(row)).toBe(rowId(row))
  })

  it("holds the two conventions the probes keep: the revoke with a customer of the run's own, the carts a probe creates", () => {
    expect(CATALOG.filter((r) => conventionsOf(r).revokesCallerTokens).map(rowId)).toEqual([
      'POST /V1/integration/customer/revoke-customer-token',
    ])
    expect(
      CATALOG.filter((r) => conventionsOf(r).probeCreates === 'cart')
        .map(rowId)
        .sort(),
    ).toEqual(['POST /V1/carts', 'POST /V1/carts/mine'])
  })
})
