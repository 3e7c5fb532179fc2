import { readdirSync, readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { CATALOG, rowId, rowNamed } from '../spec/catalog/index.ts'
import { matchTemplate } from '../spec/paths.ts'
import type { EndpointRow } from '../spec/types.ts'
import {
  expectationFor,
  judgeShape,
  NOT_SHOWN_REASON,
  schemaCompilations,
  type Expectation,
  type ShapeJudgement,
} from './judge-shape.ts'
import { endpointText } from '../spec/endpoint-id.ts'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const RESPONSES = resolve(ROOT, 'fixtures/observations/responses-2.4.7')

interface Observation {
  name: string
  request: { method: string; path: string; body: unknown }
  response: { status: number; body: any }
}
const observation = (file: string): Observation =>
  JSON.parse(readFileSync(resolve(RESPONSES, file), 'utf8')) as Observation
const body = (file: string): any => structuredClone(observation(file).response.body)
/** The exchanges of a file: one (`request`, `response`), or several (`exchanges`). */
const exchangesOf = (file: string): Observation[] => {
  const o = JSON.parse(readFileSync(resolve(RESPONSES, file), 'utf8')) as Observation & { exchanges?: Observation[] }
  return o.exchanges ?? [o]
}

/** The catalog row a concrete request hits (the template with the most literal segments wins, as a router does). */
function rowFor(method: string, path: string): EndpointRow | undefined {
  let best: { row: EndpointRow; literal: number } | undefined
  for (const row of CATALOG) {
    if (row.method !== method) continue
    const m = matchTemplate(row.path, path)
    if (m && (!best || m.literalSegments > best.literal)) best = { row, literal: m.literalSegments }
  }
  return best?.row
}

function row(id: string): EndpointRow {
  const r = rowNamed(id)
  if (!r) throw new Error(`no catalog row ${id}`)
  return r
}

const passedClean = (j: ShapeJudgement): void => {
  expect(j.failures).toEqual([])
  expect(j.warnings).toEqual([])
  expect(j.status).toBe('passed')
}
const failedWith = (j: ShapeJudgement, ...messages: string[]): void => {
  expect(j.status).toBe('failed')
  for (const m of messages) expect(j.failures).toContain(m)
}

const CREDITMEMO: Expectation = { kind: 'tabled', shape: 'creditmemo' }
const ORDER_ADDRESS: Expectation = { kind: 'tabled', shape: 'orderAddress' }
const CART_ADDRESS: Expectation = { kind: 'tabled', shape: 'cartAddress' }
const INT: Expectation = { kind: 'int' }

// --- every real answer -------------------------------------------------------------------------------------

/**
 * Every observation file, with the verdict its body must get through its catalog row's expectation
 * (`row`), and, where the body (or a part of it) is a tabled shape the row does not name, through that shape
 * (`explicit`). A new observation file without an entry here fails the test.
 */
type Want = ShapeJudgement['status'] | 'no row' | 'an error answer'

/**
 * `row`: the verdict of the file's one exchange, or one per exchange; an error answer has no shape to judge ("Shape of
 * the error response body: not shown").
 */
const OBSERVED: Record<
  string,
  { row: Want | Want[]; explicit?: { expectation: Expectation; pick?: (b: any) => unknown }[] }
> = {
  // An admin whose role lacks two ACL resources: its token (a shape not shown), two refusals, the category it may read.
  'acl-limited-admin.json': { row: ['skipped', 'an error answer', 'an error answer', 'passed'] },
  'customer-email-local-part-65.json': { row: 'an error answer' },
  'customer-token-revoked.json': { row: ['skipped', 'skipped', 'an error answer'] },
  // POST /V1/guest-carts is a set-up call, not a spec row; the address id is the detail table's int.
  'guest-billing-address-email-length.json': { row: ['no row', 'an error answer', 'passed'] },
  'product-same-name-url-key.json': { row: 'an error answer' },
  'product-sku-65-characters.json': { row: 'an error answer' },
  'special-price-malformed-date.json': { row: 'skipped' },
  'special-price-reversed-dates.json': { row: ['skipped', 'skipped'] },
  'special-price-two-periods.json': { row: ['skipped', 'skipped'] },
  'token-wrong-credentials.json': { row: ['an error answer', 'an error answer'] },
  // GET /V1/eav/attribute-sets/:attributeSetId has no return type in the spec; the body is an AttributeSetInterface.
  'attribute-set.json': { row: 'skipped', explicit: [{ expectation: { kind: 'tabled', shape: 'attributeSet' } }] },
  'base-prices-information-unknown-sku.json': { row: 'skipped' },
  'base-prices-information.json': { row: 'skipped' },
  'base-prices-mixed.json': { row: 'skipped' },
  'cart-billing-address.json': { row: 'passed' },
  'category.json': { row: 'passed' },
  'cost-delete-unknown-sku.json': { row: 'skipped' },
  'cost-mixed.json': { row: 'skipped' },
  // GET /V1/creditmemo/:id/comments: response not shown; its elements are the tabled comment object.
  'creditmemo-comments.json': {
    row: 'skipped',
    explicit: [{ expectation: { kind: 'tabled', shape: 'creditmemoComment' }, pick: (b) => b.items[0] }],
  },
  'creditmemo-invoice-refund-zero-total.json': { row: 'passed', explicit: [{ expectation: CREDITMEMO }] },
  'creditmemo-order-refund-empty-body.json': { row: 'passed', explicit: [{ expectation: CREDITMEMO }] },
  'creditmemo-order-refund-with-arguments.json': { row: 'passed', explicit: [{ expectation: CREDITMEMO }] },
  'customer-group-default.json': { row: 'passed' },
  // GET /V1/orders/:id is not a spec endpoint; its billing and shipping addresses are OrderAddressInterface.
  'order.json': {
    row: 'no row',
    explicit: [
      { expectation: ORDER_ADDRESS, pick: (b) => b.billing_address },
      { expectation: ORDER_ADDRESS, pick: (b) => b.extension_attributes.shipping_assignments[0].shipping.address },
    ],
  },
  'shipment-label-none.json': { row: 'passed' },
  'special-price-mixed.json': { row: 'skipped' },
  'tax-rate.json': { row: 'passed' },
  'tier-prices-group-1.json': { row: 'passed' },
  'tier-prices-group-all.json': { row: 'passed' },
  'tier-prices-information.json': { row: 'skipped' },
  'tier-prices-mixed-known-skus.json': { row: 'skipped' },
  'tier-prices-mixed-unknown-sku.json': { row: 'skipped' },
}

describe('judgeShape on the real instance’s answers (2.4.7)', () => {
  const files = readdirSync(RESPONSES)
    .filter((f) => f.endsWith('.json'))
    .sort()

  it('has an expected verdict for every observation file', () => {
    expect(Object.keys(OBSERVED).sort()).toEqual(files)
  })

  for (const file of files) {
    it(`${file}: judged right`, () => {
      const want = OBSERVED[file]
      expect(want, `no expectation for ${file}`).toBeDefined()
      const exchanges = exchangesOf(file)
      const wants = Array.isArray(want!.row) ? want!.row : [want!.row]
      expect(wants, `${file}: one verdict per exchange`).toHaveLength(exchanges.length)
      for (const [i, o] of exchanges.entries()) {
        const r = rowFor(o.request.method, o.request.path)
        const what = `${file} #${i} ${endpointText(o.request)}`
        if (wants[i] === 'an error answer') {
          expect(o.response.status, what).toBeGreaterThanOrEqual(400)
        } else if (wants[i] === 'no row') {
          expect(r, `${what} should hit no catalog row`).toBeUndefined()
        } else {
          expect(r, `${what}: no catalog row`).toBeDefined()
          const j = judgeShape(structuredClone(o.response.body), expectationFor(r!))
          expect(j.failures, `${what} via ${rowId(r!)}`).toEqual([])
          expect(j.status, `${what} via ${rowId(r!)}`).toBe(wants[i])
          if (j.status === 'skipped') expect(j.reason).toBe(NOT_SHOWN_REASON)
        }
      }
      for (const { expectation, pick } of want!.explicit ?? []) {
        const value = pick ? pick(body(file)) : body(file)
        expect(value, `${file}: nothing picked`).toBeDefined()
        passedClean(judgeShape(value, expectation))
      }
    })
  }

  it('credit memo items with "base_cost": null pass (a listed field may be null)', () => {
    const memo = body('creditmemo-order-refund-empty-body.json')
    expect(memo.items[0].base_cost).toBeNull()
    passedClean(judgeShape(memo, expectationFor(row('GET /V1/creditmemo/:id'))))
  })

  it('the shipment label "" passes as a string', () => {
    expect(body('shipment-label-none.json')).toBe('')
    passedClean(judgeShape(body('shipment-label-none.json'), expectationFor(row('GET /V1/shipment/:id/label'))))
  })

  it('category, customer group and tax rate pass as objects; tier prices as an array of objects', () => {
    for (const [file, id] of [
      ['category.json', 'GET /V1/categories/:categoryId'],
      ['customer-group-default.json', 'GET /V1/customerGroups/default'],
      ['tax-rate.json', 'GET /V1/taxRates/:rateId'],
      ['tier-prices-group-1.json', 'GET /V1/products/:sku/group-prices/:customerGroupId/tiers'],
      ['tier-prices-group-all.json', 'GET /V1/products/:sku/group-prices/:customerGroupId/tiers'],
    ] as const) {
      passedClean(judgeShape(body(file), expectationFor(row(id))))
    }
  })
})

// --- broken variants ------------------------------------------------------------------------------------------

describe('judgeShape on broken variants', () => {
  const memo = (): any => body('creditmemo-order-refund-with-arguments.json')
  const address = (): any => body('order.json').billing_address
  const cartAddress = (): any => body('cart-billing-address.json')

  it('a number sent as a string fails, naming pointer, expected type and value', () => {
    const m = memo()
    m.items[0].qty = '2'
    failedWith(judgeShape(m, CREDITMEMO), '/items/0/qty: expected number, got string "2"')
    const top = memo()
    top.grand_total = '21.00'
    failedWith(judgeShape(top, CREDITMEMO), '/grand_total: expected number, got string "21.00"')
  })

  it('reports every wrong field (allErrors), not only the first', () => {
    const m = memo()
    m.items[0].qty = '2'
    m.comments[0].comment = 5
    m.state = true
    const j = judgeShape(m, CREDITMEMO)
    failedWith(
      j,
      '/items/0/qty: expected number, got string "2"',
      '/comments/0/comment: expected string, got number 5',
      '/state: expected number, got boolean true',
    )
    expect(j.failures).toHaveLength(3)
  })

  it('an array turned into an object fails', () => {
    const m = memo()
    m.items = { 0: m.items[0] }
    const j = judgeShape(m, CREDITMEMO)
    expect(j.status).toBe('failed')
    expect(j.failures).toHaveLength(1)
    expect(j.failures[0]).toMatch(/^\/items: expected array, got object \{"0":\{/)
  })

  it('`street` as a string fails (order address and cart address)', () => {
    const a = address()
    a.street = '1 Main St'
    failedWith(judgeShape(a, ORDER_ADDRESS), '/street: expected array, got string "1 Main St"')
    const c = cartAddress()
    c.street = '1 Main St'
    failedWith(judgeShape(c, CART_ADDRESS), '/street: expected array, got string "1 Main St"')
  })

  it('a body that is not an object fails at the root; long values are clipped', () => {
    failedWith(judgeShape([memo()], CREDITMEMO))
    expect(judgeShape([memo()], CREDITMEMO).failures[0]).toMatch(/^\(root\): expected object, got array \[\{.{40,}…$/)
    failedWith(judgeShape(null, CREDITMEMO), '(root): expected object, got null')
    failedWith(judgeShape('', ORDER_ADDRESS), '(root): expected object, got string ""')
  })

  it('a null element inside a listed array fails (the element is an object, not a field)', () => {
    const m = memo()
    m.items.push(null)
    failedWith(judgeShape(m, CREDITMEMO), '/items/1: expected object, got null')
  })

  it('a listed field absent or null passes', () => {
    const m = memo()
    delete m.grand_total
    m.subtotal = null
    m.items[0].sku = null
    m.comments = null
    passedClean(judgeShape(m, CREDITMEMO))
    passedClean(judgeShape({ city: 'Austin' }, ORDER_ADDRESS))
  })

  it("an object with none of its type's tabled fields fails: {}, only nulls, only extension_attributes (issue 9, point 4)", () => {
    for (const [value, expectation] of [
      [{}, CREDITMEMO],
      [{}, ORDER_ADDRESS],
      [{}, CART_ADDRESS],
      [{ entity_id: null, extension_attributes: {} }, CREDITMEMO],
      [{ unlisted: 1 }, { kind: 'tabled', shape: 'attributeSet' }],
    ] as [unknown, Expectation][]) {
      const j = judgeShape(value, expectation)
      expect(j.status, JSON.stringify(value)).toBe('failed')
      expect(j.failures[0]).toMatch(
        /^\(root\): object .* carries none of the fields the spec tables for .*: not such a resource$/,
      )
    }
    // An element of a list is judged the same way.
    failedWith(
      judgeShape({ items: [{}] }, CREDITMEMO),
      '/items/0: object {} carries none of the fields the spec tables for Credit memo item object: not such a resource',
    )
  })

  it('the spec’s number takes integers and decimals', () => {
    const m = memo()
    m.items[0].qty = 2
    m.items[0].price = 2.5
    m.state = 2
    m.base_to_global_rate = 0.8123
    passedClean(judgeShape(m, CREDITMEMO))
  })

  it('unlisted fields are warnings, one per object path, never failures', () => {
    const m = memo()
    m.items[0].order_item_id_x = 1
    m.items[0].foo = 'bar'
    m.comments[0].zzz = true
    m.order_status = 'closed'
    m.extension_attributes = { anything: { goes: 1 } }
    const j = judgeShape(m, CREDITMEMO)
    expect(j.failures).toEqual([])
    expect(j.status).toBe('passed')
    expect(j.warnings).toEqual([
      'fields the spec does not list: (root): order_status',
      'fields the spec does not list: /comments/0: zzz',
      'fields the spec does not list: /items/0: order_item_id_x, foo',
    ])
  })

  it('unlisted fields in custom_attributes elements are warnings; a wrong-typed listed one fails', () => {
    const c = cartAddress()
    c.custom_attributes = [{ attribute_code: 'a', value: 'b', label: 'x' }]
    c.region_name = 'Texas'
    const j = judgeShape(c, CART_ADDRESS)
    expect(j.status).toBe('passed')
    expect(j.warnings).toEqual([
      'fields the spec does not list: (root): region_name',
      'fields the spec does not list: /custom_attributes/0: label',
    ])
    c.custom_attributes[0].value = 7
    failedWith(judgeShape(c, CART_ADDRESS), '/custom_attributes/0/value: expected string, got number 7')
  })

  it('the order body itself as an order address: passes with warnings only (no additionalProperties)', () => {
    const j = judgeShape(body('order.json'), ORDER_ADDRESS)
    expect(j.failures).toEqual([])
    expect(j.warnings).toHaveLength(1)
    expect(j.warnings[0]).toMatch(/^fields the spec does not list: \(root\): adjustment_negative, /)
  })
})

// --- scalar, array and object returns ----------------------------------------------------------------------

describe('judgeShape on returns', () => {
  it('int: a JSON integer passes', () => {
    passedClean(judgeShape(12, INT))
    passedClean(judgeShape(0, INT))
    passedClean(judgeShape(-3, INT))
  })

  it('int: a digit string passes with a warning', () => {
    const j = judgeShape('12', INT)
    expect(j.status).toBe('passed')
    expect(j.failures).toEqual([])
    expect(j.warnings).toEqual([
      '(root): int sent as the digit string "12" (the platform sends some ids this way; accepted)',
    ])
  })

  it('int: everything else fails, naming what was seen', () => {
    failedWith(judgeShape({ id: 12 }, INT), '(root): expected int, got object {"id":12}')
    failedWith(judgeShape('abc', INT), '(root): expected int, got string "abc"')
    failedWith(judgeShape(12.5, INT), '(root): expected int, got number 12.5')
    failedWith(judgeShape(null, INT), '(root): expected int, got null')
    failedWith(judgeShape(undefined, INT), 'no body (expected int)')
    failedWith(judgeShape(true, INT), '(root): expected int, got boolean true')
    failedWith(judgeShape('', INT), '(root): expected int, got string ""')
    failedWith(judgeShape([12], INT), '(root): expected int, got array [12]')
    failedWith(judgeShape('12.0', INT), '(root): expected int, got string "12.0"')
    failedWith(judgeShape(' 12', INT), '(root): expected int, got string " 12"')
    failedWith(judgeShape('1e3', INT), '(root): expected int, got string "1e3"')
  })

  it('int: a signed digit string is not tolerated (decision: the tolerance is for the platform’s positive ids)', () => {
    failedWith(
      judgeShape('-3', INT),
      '(root): expected int, got string "-3" (only an unsigned digit string is tolerated in place of an int)',
    )
  })

  it('bool: true/false pass; anything else fails with a note', () => {
    passedClean(judgeShape(true, { kind: 'bool' }))
    passedClean(judgeShape(false, { kind: 'bool' }))
    failedWith(
      judgeShape(1, { kind: 'bool' }),
      '(root): expected boolean (JSON true or false), got number 1 (not a JSON boolean)',
    )
    failedWith(
      judgeShape('true', { kind: 'bool' }),
      '(root): expected boolean (JSON true or false), got string "true" (not a JSON boolean)',
    )
    failedWith(judgeShape(null, { kind: 'bool' }), '(root): expected boolean (JSON true or false), got null')
    failedWith(judgeShape(undefined, { kind: 'bool' }), 'no body (expected bool)')
  })

  it('string: any JSON string passes, "" included; anything else fails', () => {
    passedClean(judgeShape('', { kind: 'string' }))
    passedClean(judgeShape('JVBERi0xLjQK', { kind: 'string' }))
    failedWith(judgeShape(5, { kind: 'string' }), '(root): expected string, got number 5')
    failedWith(judgeShape(null, { kind: 'string' }), '(root): expected string, got null')
    failedWith(judgeShape({}, { kind: 'string' }), '(root): expected string, got object {}')
    failedWith(judgeShape(undefined, { kind: 'string' }), 'no body (expected string)')
  })

  it('array: a JSON array passes; an object with numeric keys fails; elements are judged', () => {
    const tiers = expectationFor(row('GET /V1/products/:sku/group-prices/:customerGroupId/tiers'))
    expect(tiers).toEqual({ kind: 'array', items: { kind: 'object', typeName: 'ProductTierPriceInterface' } })
    passedClean(judgeShape([], tiers))
    const list = body('tier-prices-group-1.json')
    failedWith(judgeShape({ 0: list[0] }, tiers))
    expect(judgeShape({ 0: list[0] }, tiers).failures[0]).toMatch(
      /^\(root\): expected array, got object \{"0":.*\(an object with numeric keys is not an array\)$/,
    )
    failedWith(judgeShape([list[0], 'x'], tiers), '/1: expected object (ProductTierPriceInterface), got string "x"')
    failedWith(judgeShape(null, tiers), '(root): expected array, got null')
    failedWith(judgeShape(undefined, tiers), 'no body (expected array of object (ProductTierPriceInterface))')
    passedClean(judgeShape([1, 'a', null], { kind: 'array' }))
  })

  it('object: a JSON object passes; an array, null or a scalar fails', () => {
    const cat: Expectation = { kind: 'object', typeName: 'CategoryInterface' }
    passedClean(judgeShape({ name: 'x' }, cat))
    // A type named without fields: no field can be asked for, but an object without any value is no resource.
    failedWith(
      judgeShape({}, cat),
      '(root): object {} carries no value at all: an empty object is no CategoryInterface',
    )
    failedWith(
      judgeShape({ id: null }, cat),
      '(root): object {"id":null} carries no value at all: an empty object is no CategoryInterface',
    )
    passedClean(judgeShape({}, { kind: 'object' }))
    failedWith(judgeShape([], cat), '(root): expected object (CategoryInterface), got array []')
    failedWith(judgeShape(null, cat), '(root): expected object (CategoryInterface), got null')
    failedWith(judgeShape('2', cat), '(root): expected object (CategoryInterface), got string "2"')
    failedWith(judgeShape(undefined, cat), 'no body (expected object (CategoryInterface))')
  })

  it('schema: no body fails', () => {
    failedWith(judgeShape(undefined, CREDITMEMO), 'no body (expected Credit memo (CreditmemoInterface))')
  })

  it('not-shown: skipped with the reason, never passed — with or without a body', () => {
    const e: Expectation = { kind: 'not-shown', reason: 'because' }
    for (const v of [undefined, null, {}, 'x', 12])
      expect(judgeShape(v, e)).toEqual({ status: 'skipped', failures: [], warnings: [], reason: 'because' })
  })

  it('compiles the schemas once, whatever the number of calls', () => {
    judgeShape({}, CREDITMEMO)
    for (let i = 0; i < 50; i++) {
      judgeShape({ state: i }, CREDITMEMO)
      judgeShape({}, CART_ADDRESS)
      judgeShape({}, { kind: 'tabled', shape: 'attributeSet' })
    }
    expect(schemaCompilations()).toBe(1)
  })
})

// --- expectationFor over the catalog --------------------------------------------------------------------------

describe('expectationFor', () => {
  it('maps every catalog row (an unmapped row throws)', () => {
    const kinds = new Map<string, number>()
    for (const r of CATALOG) {
      const e = expectationFor(r)
      kinds.set(e.kind, (kinds.get(e.kind) ?? 0) + 1)
      if (r.returns === undefined && e.kind !== 'not-shown')
        expect(['GET /V1/creditmemo/:id', 'GET /V1/carts/:cartId/billing-address']).toContain(rowId(r))
    }
    expect(kinds.get('not-shown')).toBe(CATALOG.filter((r) => r.returns === undefined).length - 2)
  })

  it('maps each return text of the catalog', () => {
    const want: Record<string, Expectation> = {
      'POST /V1/creditmemo': CREDITMEMO,
      'PUT /V1/orders/:parent_id': ORDER_ADDRESS,
      'POST /V1/guest-carts/:cartId/billing-address': INT,
      'POST /V1/invoice/:invoiceId/refund': INT,
      'POST /V1/order/:orderId/refund': INT,
      'PUT /V1/eav/attribute-sets/:attributeSetId': { kind: 'tabled', shape: 'attributeSet' },
      'POST /V1/eav/attribute-sets': { kind: 'tabled', shape: 'attributeSet' },
      'GET /V1/products/:sku/group-prices/:customerGroupId/tiers': {
        kind: 'array',
        items: { kind: 'object', typeName: 'ProductTierPriceInterface' },
      },
      'GET /V1/categories/:categoryId': { kind: 'object', typeName: 'CategoryInterface' },
      'PUT /V1/carts/:cartId/order': INT,
      'POST /V1/carts/mine/estimate-shipping-methods': {
        kind: 'array',
        items: { kind: 'object', typeName: 'ShippingMethodInterface' },
      },
      'GET /V1/inventory/get-latlng-from-address': { kind: 'object', typeName: 'LatLngInterface' },
      'GET /V1/stockmedia/asset/list': { kind: 'object', typeName: 'SearchResultInterface' },
      'DELETE /V1/carts/:cartId/items/:itemId': { kind: 'bool' },
      'GET /V1/customerGroups/default': { kind: 'object', typeName: 'GroupInterface' },
      'GET /V1/shipment/:id/label': { kind: 'string' },
      'GET /V1/taxRates/:rateId': { kind: 'object', typeName: 'TaxRateInterface' },
    }
    for (const [id, e] of Object.entries(want)) expect(expectationFor(row(id)), id).toEqual(e)
    // every row with a return type is in the table above
    expect(
      CATALOG.filter((r) => r.returns !== undefined)
        .map(rowId)
        .sort(),
    ).toEqual(Object.keys(want).sort())
  })

  it('the two reads whose shape the spec tables', () => {
    expect(expectationFor(row('GET /V1/creditmemo/:id'))).toEqual(CREDITMEMO)
    expect(expectationFor(row('GET /V1/carts/:cartId/billing-address'))).toEqual(CART_ADDRESS)
  })

  it('rows without a return type are not-shown, nothing invented', () => {
    for (const id of [
      'DELETE /V1/eav/attribute-sets/:attributeSetId',
      'GET /V1/eav/attribute-sets/:attributeSetId',
      'PUT /V1/creditmemo/:id',
      'GET /V1/creditmemo/:id/comments',
      'POST /V1/carts/:cartId/billing-address',
      'POST /V1/products/base-prices',
    ]) {
      expect(expectationFor(row(id)), id).toEqual({
        kind: 'not-shown',
        reason: "the spec does not show this endpoint's response",
      })
    }
  })

  it('an unknown return text throws', () => {
    const base = { method: 'GET', path: '/V1/x' } as const
    for (const returns of [
      'OrderInterface',
      'float',
      'int[][]',
      'int (a) (b)',
      '',
      'CreditmemoInterface extra',
      'int or string',
    ]) {
      expect(() => expectationFor({ ...base, returns }), returns).toThrow(/unknown return type/)
    }
    expect(expectationFor({ ...base, returns: 'int (new note)' })).toEqual(INT)
    expect(expectationFor({ ...base, returns: 'CreditmemoInterface[]' })).toEqual({ kind: 'array', items: CREDITMEMO })
  })
})
