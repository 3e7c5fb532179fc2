/**
 * The batch-partial check's rows and judgements on the answers it is handed — a real 2.4.7 instance's recorded
 * ones, and what a read-back found: no target. Its runs against the reference target, clean and under a fault
 * switch: batch-partial.test.ts.
 */
import { readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { CATALOG, rowId } from '../spec/catalog/index.ts'
import {
  BATCH_ROWS,
  batchPartialCheck,
  batchServerError,
  judgeKnownSkusAnswer,
  judgeMixedAnswer,
  judgeReadBack,
  judgeUnknownSkuAnswer,
  type PlannedItem,
} from './batch-partial.ts'
import { invalidKindsOf } from './batch-partial/operations.ts'
import { MALFORMED_DATE } from './batch-partial/values.ts'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const RESPONSES = resolve(ROOT, 'fixtures/observations/responses-2.4.7')

interface Observation {
  request: { method: string; path: string; body: { prices?: Record<string, string | number>[]; skus?: string[] } }
  response: { status: number; body: unknown }
}
const observation = (name: string): Observation =>
  JSON.parse(readFileSync(resolve(RESPONSES, `${name}.json`), 'utf8')) as Observation

/** The items of an observed batch call, invalid ones given by their index in the request. */
function itemsOf(o: Observation, invalid: number[]): PlannedItem[] {
  return o.request.body.prices!.map((fields, index) => ({ index, valid: !invalid.includes(index), fields }))
}

const BATCH_ROW_SET = new Set(BATCH_ROWS)
const batchRows = CATALOG.filter((r) => BATCH_ROW_SET.has(rowId(r)))

describe('batch-partial check', () => {
  it('applies to exactly the 12 batch price rows, and says why not to every other row', () => {
    expect([...BATCH_ROWS].sort()).toEqual(
      [
        'POST /V1/products/base-prices',
        'POST /V1/products/base-prices-information',
        'POST /V1/products/cost',
        'POST /V1/products/cost-delete',
        'POST /V1/products/cost-information',
        'POST /V1/products/special-price',
        'POST /V1/products/special-price-delete',
        'POST /V1/products/special-price-information',
        'POST /V1/products/tier-prices',
        'POST /V1/products/tier-prices-delete',
        'POST /V1/products/tier-prices-information',
        'PUT /V1/products/tier-prices',
      ].sort(),
    )
    expect(batchRows).toHaveLength(12)
    for (const row of CATALOG) {
      expect(batchPartialCheck.appliesTo(row), rowId(row)).toBe(
        BATCH_ROW_SET.has(rowId(row)) ? true : 'not a batch price operation',
      )
    }
  })
})

describe('batch-partial judgements on the real instance’s answers (2.4.7)', () => {
  it('passes the mixed calls answered with one entry per invalid item', () => {
    for (const [name, invalid] of [
      ['base-prices-mixed', [1, 2, 3]],
      ['cost-mixed', [1, 2]],
      ['special-price-mixed', [1, 2]],
      ['tier-prices-mixed-known-skus', [1, 2]],
    ] as const) {
      const o = observation(name)
      expect(judgeMixedAnswer(itemsOf(o, [...invalid]), o.response).problems, name).toEqual([])
    }
  })

  it('passes a malformed special-price date reported per item, and a reversed period stored without an entry (a reading the spec allows)', () => {
    const malformed = observation('special-price-malformed-date')
    expect(malformed.request.body.prices![0]!.price_from).toBe(MALFORMED_DATE)
    expect(judgeMixedAnswer(itemsOf(malformed, [0]), malformed.response).problems).toEqual([])
    // The suite never sends a reversed period as an invalid item: stored as a valid one, it passes.
    const [update, readBack] = (
      JSON.parse(readFileSync(resolve(RESPONSES, 'special-price-reversed-dates.json'), 'utf8')) as {
        exchanges: Observation[]
      }
    ).exchanges
    const items = itemsOf(update!, [])
    expect(judgeMixedAnswer(items, update!.response).problems).toEqual([])
    expect(judgeReadBack('update', 'special', items, [], readBack!.response.body as unknown[])).toEqual([])
    expect(invalidKindsOf('special')).not.toContain('reversed dates')
  })

  it('fails the tier-price call that failed as a whole (404) on one unknown sku', () => {
    const o = observation('tier-prices-mixed-unknown-sku')
    const j = judgeMixedAnswer(itemsOf(o, [1]), o.response)
    expect(j.problems).toEqual([
      'the call failed as a whole instead of reporting its invalid items: answered 404 "The product that was requested doesn\'t exist. Verify the product and try again." — per the spec (Errors 1) the 1 invalid item (item 1) is excluded and reported as result entries, and the 1 valid one applied',
    ])
  })

  it('passes the information calls naming known skus', () => {
    for (const name of ['base-prices-information', 'tier-prices-information']) {
      const o = observation(name)
      expect(judgeKnownSkusAnswer('information', o.request.body.skus!, o.response), name).toBeUndefined()
    }
  })

  it('fails base-prices-information dropping the unknown sku silently', () => {
    const o = observation('base-prices-information-unknown-sku')
    expect(judgeUnknownSkuAnswer('information', o.request.body.skus!, ['no-such-sku-1'], o.response)).toBe(
      'the target dropped the unknown sku instead of raising: a call naming the unknown sku no-such-sku-1 beside the known probe-simple-1 answered 200 [{"price":12.5,"store_id":0,"sku":"probe-simple-1"}], silently leaving it out; per the spec (Errors 2) a call naming an unknown sku raises an exception',
    )
  })

  it('fails cost-delete answering true for an unknown sku', () => {
    const o = observation('cost-delete-unknown-sku')
    expect(judgeUnknownSkuAnswer('cost-delete', o.request.body.skus!, ['no-such-sku-5'], o.response)).toBe(
      'the target dropped the unknown sku instead of raising: a cost-delete naming the unknown sku no-such-sku-5 answered 200 true; per the spec (Errors 2) a call naming an unknown sku raises an exception',
    )
  })

  it('judges a known-sku call by its success and, where it lists prices, by its entries; what it returns is not shown, so false or a non-list is no failure', () => {
    expect(judgeKnownSkusAnswer('cost-delete', ['a'], { status: 200, body: false })).toBeUndefined()
    expect(judgeKnownSkusAnswer('information', ['a'], { status: 200, body: { prices: [] } })).toBeUndefined()
    expect(judgeKnownSkusAnswer('information', ['a', 'b'], { status: 200, body: [{ sku: 'a' }] })).toMatch(
      /the answer has no entry for b/,
    )
    expect(judgeKnownSkusAnswer('cost-delete', ['a'], { status: 400, body: { message: 'x' } })).toMatch(/not a success/)
  })

  // Issue 29: the spec tables no batch body (the platform's conventions give it) and states no rule about server
  // errors.
  it('does not judge a call whose success a rule needs on a server error, quoting the report id; only a 5xx says so', () => {
    const platform = {
      status: 500,
      body: { message: 'Internal Error. Details are available in Magento log file. Report ID: webapi-6b0bb8931408b' },
      text: '',
    }
    expect(batchServerError('the mixed call', platform)).toEqual({
      reason: 'server-error',
      text: 'the mixed call answered a server error (500 "Internal Error. Details are available in Magento log file. Report ID: webapi-6b0bb8931408b"); the run lists it with its server errors',
    })
    expect(
      batchServerError('the mixed call', { status: 400, body: { message: 'Could not save Prices.' }, text: '' }),
    ).toBeUndefined()
  })

  it('accepts any error status for an unknown sku, and refuses a success of any shape', () => {
    for (const status of [400, 404, 500])
      expect(
        judgeUnknownSkuAnswer('information', ['a', 'b'], ['b'], { status, body: { message: 'x' } }),
      ).toBeUndefined()
    expect(
      judgeUnknownSkuAnswer('information', ['a', 'b'], ['b'], { status: 200, body: [{ sku: 'a' }, { sku: 'B' }] }),
    ).toMatch(/^a call naming the unknown sku b beside the known a answered 200 .* instead of raising an exception/)
    expect(judgeUnknownSkuAnswer('cost-delete', ['b'], ['b'], { status: 204, body: '' })).toMatch(
      /^the target dropped the unknown sku instead of raising/,
    )
  })
})

describe('batch-partial read-back judgement', () => {
  const tier = (sku: string, quantity: number, price: number, extra: Record<string, string | number> = {}) => ({
    sku,
    price,
    price_type: 'fixed',
    website_id: 0,
    customer_group: 'ALL GROUPS',
    quantity,
    ...extra,
  })
  const items: PlannedItem[] = [
    { index: 0, valid: true, fields: tier('v1', 41, 12.34) },
    { index: 1, valid: false, kind: 'invalid price', fields: tier('p1', 43, -7.13) },
  ]
  // as the platform lists tiers: group code in lower case, numbers as it stores them
  const stored = (sku: string, quantity: number, price: number | string) => ({
    sku,
    price,
    price_type: 'fixed',
    website_id: 0,
    customer_group: 'all groups',
    quantity,
  })

  it('passes valid items stored (numbers compared numerically) and invalid skus unchanged', () => {
    expect(
      judgeReadBack(
        'update',
        'tier',
        items,
        [stored('p1', 43, 9)],
        [stored('v1', 41, '12.340000'), stored('p1', 43, 9)],
      ),
    ).toEqual([])
  })

  it('fails an invalid item that was applied, quoting what was read back', () => {
    expect(
      judgeReadBack('update', 'tier', items, [stored('p1', 43, 9)], [stored('v1', 41, 12.34), stored('p1', 43, -7.13)]),
    ).toEqual([
      'invalid item 1 (invalid price) {"sku":"p1","price":-7.13,"price_type":"fixed","website_id":0,"customer_group":"ALL GROUPS","quantity":43} was applied: sku p1 read back [{"sku":"p1","price":-7.13,"price_type":"fixed","website_id":0,"customer_group":"all groups","quantity":43}] where it had [{"sku":"p1","price":9,"price_type":"fixed","website_id":0,"customer_group":"all groups","quantity":43}]',
    ])
  })

  it('fails a valid item not stored, not deleted, or a replace that leaves other tiers of its sku', () => {
    expect(judgeReadBack('update', 'tier', items, [], [stored('v1', 41, 12.35)])).toEqual([
      expect.stringMatching(/^valid item 0 \{.*\} was not stored: read back \{.*"price":12.35/),
    ])
    expect(judgeReadBack('delete', 'tier', items, [stored('v1', 41, 12.34)], [stored('v1', 41, 12.34)])).toEqual([
      expect.stringMatching(/^valid item 0 .* was not deleted: read back/),
    ])
    expect(
      judgeReadBack('replace', 'tier', items, [stored('v1', 5, 1)], [stored('v1', 41, 12.34), stored('v1', 5, 1)]),
    ).toEqual([
      expect.stringMatching(
        /^the replace left tier prices of sku v1 that are not in the call: \[\{"sku":"v1","price":1,.*"quantity":5\}\]/,
      ),
    ])
  })
})
