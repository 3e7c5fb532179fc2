import { readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import {
  attributeEntries,
  judgeBatchResult,
  type Attribution,
  type BatchItem,
  type BatchJudgement,
} from './batch-attribution.ts'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const RESPONSES = resolve(ROOT, 'fixtures/observations/responses-2.4.7')

interface Observation {
  request: { method: string; path: string; body: { prices: Record<string, string | number>[] } }
  response: { status: number; body: any }
}
const observation = (file: string): Observation =>
  JSON.parse(readFileSync(resolve(RESPONSES, file), 'utf8')) as Observation

/** The items of an observed call, `invalid` by their index in the request. */
function itemsOf(file: string, invalid: number[]): BatchItem[] {
  return observation(file).request.body.prices.map((fields, index) => ({
    index,
    valid: !invalid.includes(index),
    fields,
  }))
}
const answerOf = (file: string): any => structuredClone(observation(file).response.body)

const byItem = (a: Attribution): Record<number, number[]> => Object.fromEntries(a.byItem)
const passes = (j: BatchJudgement): void => {
  expect(j.problems).toEqual([])
  expect(j.status).toBe('passed')
}
const fails = (j: BatchJudgement, ...patterns: RegExp[]): void => {
  expect(j.status).toBe('failed')
  for (const p of patterns)
    expect(
      j.problems.some((x) => p.test(x)),
      `no problem matches ${p}:\n${j.problems.join('\n')}`,
    ).toBe(true)
}

// --- the real instance's answers ----------------------------------------------------------------------------

describe('judgeBatchResult on the real instance’s answers (2.4.7)', () => {
  it('base-prices-mixed: unknown sku, price -7.13 and store 9917 each get their entry — passes', () => {
    const items = itemsOf('base-prices-mixed.json', [1, 2, 3])
    const answer = answerOf('base-prices-mixed.json')
    // the -7.13 entry names neither the sku nor the store: only the odd price ties it to item 2
    expect(answer[1].parameters).toEqual(['Price', '-7.13'])
    const j = judgeBatchResult(items, answer)
    passes(j)
    expect(j.warnings).toEqual([])
    expect(byItem(j.attribution)).toEqual({ 0: [], 1: [0], 2: [1], 3: [2] })
    expect(j.attribution.unattributed).toEqual([])
  })

  it('cost-mixed — passes', () => {
    const j = judgeBatchResult(itemsOf('cost-mixed.json', [1, 2]), answerOf('cost-mixed.json'))
    passes(j)
    expect(byItem(j.attribution)).toEqual({ 0: [], 1: [0], 2: [1] })
  })

  it('special-price-mixed: one item yields two entries — passes', () => {
    const j = judgeBatchResult(itemsOf('special-price-mixed.json', [1, 2]), answerOf('special-price-mixed.json'))
    passes(j)
    expect(byItem(j.attribution)).toEqual({ 0: [], 1: [0], 2: [1, 2] })
  })

  it('tier-prices-mixed-known-skus: %placeholders unfilled, parameters out of order — passes', () => {
    const answer = answerOf('tier-prices-mixed-known-skus.json')
    expect(answer[0].message).toContain('%websiteId')
    expect(answer[1].parameters[0]).toBe('bogus')
    const j = judgeBatchResult(itemsOf('tier-prices-mixed-known-skus.json', [1, 2]), answer)
    passes(j)
    expect(byItem(j.attribution)).toEqual({ 0: [], 1: [0], 2: [1] })
  })

  it('tier-prices-mixed-unknown-sku: a 404 object for the whole call — FAILS', () => {
    const o = observation('tier-prices-mixed-unknown-sku.json')
    expect(o.response.status).toBe(404)
    const j = judgeBatchResult(itemsOf('tier-prices-mixed-unknown-sku.json', [1]), o.response.body)
    fails(
      j,
      /^the answer is not a JSON array of PriceUpdateResultInterface entries but an object: \{"message":"The product that was requested doesn't exist/,
    )
    expect(j.problems[0]).toMatch(
      /per the spec, invalid items are excluded and reported per item, they do not fail the whole call \(invalid: item 1\)$/,
    )
  })
})

// --- hand-made answers ----------------------------------------------------------------------------------

describe('judgeBatchResult on hand-made answers', () => {
  const baseItems = (): BatchItem[] => itemsOf('base-prices-mixed.json', [1, 2, 3])
  const baseAnswer = (): any[] => answerOf('base-prices-mixed.json')

  it('an entry for a valid item fails, quoting it and naming the item', () => {
    const answer = [
      ...baseAnswer(),
      { message: 'Invalid attribute %fieldName = %fieldValue.', parameters: ['SKU', 'probe-simple-1'] },
    ]
    const j = judgeBatchResult(baseItems(), answer)
    fails(
      j,
      /^entry 3 \{"message":"Invalid attribute %fieldName = %fieldValue.","parameters":\["SKU","probe-simple-1"\]\} names valid item 0 \{"sku":"probe-simple-1","price":12.5,"store_id":0\}: valid items must not be reported$/,
    )
    expect(j.problems).toHaveLength(1)
  })

  it('an entry naming only the valid item’s odd price fails too', () => {
    const answer = [...baseAnswer(), { message: 'Invalid attribute Price = 12.5.', parameters: [] }]
    fails(judgeBatchResult(baseItems(), answer), /^entry 3 .* names valid item 0 /)
  })

  it('a missing entry for an invalid item fails', () => {
    const answer = baseAnswer().slice(0, 2) // the store-9917 entry dropped
    const j = judgeBatchResult(baseItems(), answer)
    fails(j, /^invalid item 3 \{"sku":"probe-simple-2","price":8,"store_id":9917\} has no entry attributed to it$/)
    expect(j.problems).toHaveLength(1)
  })

  it('[] for a call with invalid items fails once per invalid item', () => {
    const j = judgeBatchResult(baseItems(), [])
    expect(j.status).toBe('failed')
    expect(j.problems.map((p) => p.replace(/ \{.*$/, ''))).toEqual([
      'invalid item 1',
      'invalid item 2',
      'invalid item 3',
    ])
  })

  it('all-valid call: [] passes; any entry fails', () => {
    const items = baseItems().map((it) => ({ ...it, valid: true }))
    passes(judgeBatchResult(items, []))
    const entry = { message: 'Something odd.', parameters: [] }
    fails(
      judgeBatchResult(items, [entry]),
      /^all items are valid, so the answer must be \[\] but it has 1 entry: \[\{"message":"Something odd.","parameters":\[\]\}\]$/,
    )
    fails(judgeBatchResult([], [entry]), /must be \[\]/)
    passes(judgeBatchResult([], []))
  })

  it('an entry naming only a value all items share is unattributed and leaves the invalid item uncovered — fails', () => {
    const items: BatchItem[] = [
      { index: 0, valid: true, fields: { sku: 'probe-simple-1', price: 12.5, store_id: 0 } },
      { index: 1, valid: false, fields: { sku: 'probe-simple-2', price: -7.13, store_id: 0 } },
    ]
    const entry = { message: 'Requested store is not found. Store ID: 0.', parameters: ['0'] }
    const j = judgeBatchResult(items, [entry])
    expect(j.attribution.unattributed).toEqual([0])
    expect(j.attribution.ambiguous).toEqual([])
    fails(
      j,
      /^invalid item 1 .* has no entry attributed to it \(matching no item: entry 0 \{"message":"Requested store is not found. Store ID: 0.","parameters":\["0"\]\}\)$/,
    )
  })

  it('an unattributed entry that leaves nothing uncovered is a warning, not a failure', () => {
    // in the cost call every item has store 0: an entry naming only it matches no item
    const answer = [
      ...answerOf('cost-mixed.json'),
      { message: 'Invalid attribute %fieldName = %fieldValue.', parameters: ['Store', '0'] },
    ]
    const j = judgeBatchResult(itemsOf('cost-mixed.json', [1, 2]), answer)
    passes(j)
    expect(j.attribution.unattributed).toEqual([2])
    expect(j.warnings).toEqual([
      'entry 2 {"message":"Invalid attribute %fieldName = %fieldValue.","parameters":["Store","0"]} matches no item of the call',
    ])
  })

  it('an entry naming only a value some items share, a valid one among them, fails', () => {
    // in the base-price call store 0 is shared by items 0 (valid), 1 and 2, not by item 3 (9917)
    const answer = [
      ...baseAnswer(),
      { message: 'Invalid attribute %fieldName = %fieldValue.', parameters: ['Store', '0'] },
    ]
    const j = judgeBatchResult(baseItems(), answer)
    expect(j.attribution.ambiguous).toEqual([{ entry: 3, items: [0, 1, 2] }])
    fails(j, /^entry 3 .* matches items 0, 1, 2 equally and could belong to valid item 0 /)
    expect(j.problems).toHaveLength(1)
  })

  it('an entry tying a valid and an invalid item fails: it could belong to the valid one', () => {
    const items: BatchItem[] = [
      { index: 0, valid: true, fields: { sku: 'probe-simple-2', price: 5, store_id: 0 } },
      { index: 1, valid: false, fields: { sku: 'probe-simple-2', price: -1.25, store_id: 0 } },
      { index: 2, valid: true, fields: { sku: 'probe-simple-3', price: 6, store_id: 0 } },
    ]
    const entry = { message: 'Something about SKU = probe-simple-2.', parameters: ['probe-simple-2'] }
    const j = judgeBatchResult(items, [entry])
    expect(j.attribution.ambiguous).toEqual([{ entry: 0, items: [0, 1] }])
    expect(j.attribution.unattributed).toEqual([0])
    fails(
      j,
      /^entry 0 .* matches items 0, 1 equally and could belong to valid item 0 \{"sku":"probe-simple-2","price":5,"store_id":0\}$/,
      /^invalid item 1 .* has no entry attributed to it \(ambiguous: entry 0 .* \(ties items 0, 1\)\)$/,
    )
  })

  it('an entry tying two invalid items that are otherwise covered is a warning only', () => {
    const items: BatchItem[] = [
      { index: 0, valid: true, fields: { sku: 'probe-simple-1', price: 5, store_id: 0 } },
      { index: 1, valid: false, fields: { sku: 'probe-simple-2', price: -1.25, store_id: 0 } },
      { index: 2, valid: false, fields: { sku: 'probe-simple-2', price: 6, store_id: 9917 } },
    ]
    const answer = [
      { message: 'Invalid attribute %fieldName = %fieldValue.', parameters: ['Price', '-1.25'] },
      { message: 'Requested store is not found.', parameters: ['9917'] },
      { message: 'Something about %sku.', parameters: ['probe-simple-2'] },
    ]
    const j = judgeBatchResult(items, answer)
    passes(j)
    expect(j.attribution.ambiguous).toEqual([{ entry: 2, items: [1, 2] }])
    expect(j.warnings).toEqual([
      'entry 2 {"message":"Something about %sku.","parameters":["probe-simple-2"]} matches invalid items 1, 2 equally',
    ])
  })

  it('an answer that is not an array fails, saying what it is', () => {
    for (const [answer, what] of [
      [{ message: 'Could not save Prices.' }, 'an object: {"message":"Could not save Prices."}'],
      ['[]', 'a string: "[]"'],
      [true, 'a boolean: true'],
      [null, 'null: null'],
      [undefined, 'no body'],
    ] as const) {
      const j = judgeBatchResult(baseItems(), answer)
      expect(j.status).toBe('failed')
      expect(j.problems[0]).toContain(
        `the answer is not a JSON array of PriceUpdateResultInterface entries but ${what}`,
      )
    }
    // also for an all-valid call
    fails(
      judgeBatchResult([{ index: 0, valid: true, fields: { sku: 'a' } }], {}),
      /^the answer is not a JSON array of PriceUpdateResultInterface entries but an object: \{\}$/,
    )
  })

  it('an entry that is not an object fails; one not in the platform\'s {message, parameters} form is a warning (the spec names only "a problem description")', () => {
    const answer = [
      ...baseAnswer(),
      'no-such-sku-1',
      { parameters: ['no-such-sku-1'] },
      { message: 5, parameters: [] },
      { message: 'x no-such-sku-1', parameters: 'no-such-sku-1' },
    ]
    const j = judgeBatchResult(baseItems(), answer)
    fails(j, /^entry 3 is not a result entry \(not an object\): "no-such-sku-1"$/)
    expect(j.problems).toHaveLength(1)
    expect(j.warnings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^entry 4 is not in the platform's form \(no "message"\)/),
        expect.stringMatching(/^entry 5 is not in the platform's form \("message" is not a string\)/),
        expect.stringMatching(
          /^entry 6 is not in the platform's form \("parameters" is neither a list nor an object\)/,
        ),
      ]),
    )
  })

  it('attributes an entry by values under any field names', () => {
    const j = judgeBatchResult(baseItems(), [
      ...baseAnswer().slice(1),
      { error: 'unknown product', sku: 'no-such-sku-1' },
    ])
    expect(j.problems).toEqual([])
    expect(j.status).toBe('passed')
  })

  it('parameters may be absent or an object of named values', () => {
    const items = baseItems()
    const answer = [
      { message: 'Invalid attribute SKU = no-such-sku-1.' },
      {
        message: 'Invalid attribute %fieldName = %fieldValue.',
        parameters: { fieldName: 'Price', fieldValue: '-7.13' },
      },
      { message: 'Requested store is not found.', parameters: { store: { id: 9917 } } },
    ]
    const j = judgeBatchResult(items, answer)
    passes(j)
    expect(byItem(j.attribution)).toEqual({ 0: [], 1: [0], 2: [1], 3: [2] })
  })
})

// --- attribution rules ----------------------------------------------------------------------------------

describe('attributeEntries: matching values', () => {
  /** Item 0 holds `value`; item 1 holds other values; is an entry with this message attributed to item 0? */
  const messageMatches = (value: string | number, message: string): boolean => {
    const items: BatchItem[] = [
      { index: 0, valid: false, fields: { v: value } },
      { index: 1, valid: false, fields: { v: 'zz-other-zz' } },
    ]
    return attributeEntries(items, [{ message, parameters: [] }]).byItem.get(0)!.length === 1
  }
  const parameterMatches = (value: string | number, parameter: string | number): boolean => {
    const items: BatchItem[] = [
      { index: 0, valid: false, fields: { v: value } },
      { index: 1, valid: false, fields: { v: 'zz-other-zz' } },
    ]
    return attributeEntries(items, [{ message: '', parameters: [parameter] }]).byItem.get(0)!.length === 1
  }

  it('a value counts in the message only when delimited', () => {
    expect(messageMatches(9917, 'Requested store is not found. Store ID: 9917.')).toBe(true)
    expect(messageMatches(9917, 'Store ID: 99170.')).toBe(false)
    expect(messageMatches(9917, 'Store ID: 19917.')).toBe(false)
    expect(messageMatches(0, 'Store ID: 10.')).toBe(false)
    expect(messageMatches(0, 'Store ID: 0.')).toBe(true)
    expect(messageMatches(0, 'Price From: 2027-01-01 00:00:00.')).toBe(false)
    expect(messageMatches(1, 'Price From: 2027-01-01 00:00:00.')).toBe(false)
    expect(messageMatches(2027, 'Price From: 2027-01-01 00:00:00.')).toBe(false)
    expect(messageMatches(7, 'Invalid attribute Price = -7.13.')).toBe(false)
    expect(messageMatches(13, 'Invalid attribute Price = -7.13.')).toBe(false)
    expect(messageMatches(-7.13, 'Invalid attribute Price = -7.13.')).toBe(true)
    expect(messageMatches(7.13, 'Invalid attribute Price = -7.13.')).toBe(false)
    expect(messageMatches(2, 'Row ID: SKU = probe-simple-2, Store ID: 0.')).toBe(false)
    expect(messageMatches('probe-simple-2', 'Row ID: SKU = probe-simple-2, Store ID: 0.')).toBe(true)
    expect(messageMatches('probe-simple-2', 'Row ID: SKU = probe-simple-20.')).toBe(false)
    expect(messageMatches('probe-simple', 'Row ID: SKU = probe-simple-2.')).toBe(false)
    expect(messageMatches('simple-2', 'Row ID: SKU = probe-simple-2.')).toBe(false)
    expect(messageMatches('bogus', 'Invalid attribute Price Type = bogus.')).toBe(true)
    expect(messageMatches('bogus', 'Invalid attribute Price Type = bogusly.')).toBe(false)
    expect(messageMatches('sku-v1', 'Row ID: SKU = sku-v1.2, Store ID: 0.')).toBe(false)
    expect(messageMatches('sku-v1', 'Row ID: SKU = sku-v1. Store ID: 0.')).toBe(true)
    expect(messageMatches('2027-01-01 00:00:00', 'Price From: 2027-01-01 00:00:00, Price To: x.')).toBe(true)
    expect(messageMatches(9917, 'Website ID:9917')).toBe(true)
  })

  it('text is compared case-insensitively', () => {
    expect(messageMatches('probe-simple-2', 'Row ID: SKU = PROBE-SIMPLE-2.')).toBe(true)
    expect(parameterMatches('ALL GROUPS', 'all groups')).toBe(true)
  })

  it('numbers compare numerically: -7.13 = "-7.13", 8 = "8.0" = "8.000000" (decision), but not 8.5, 18, -8', () => {
    expect(parameterMatches(-7.13, '-7.13')).toBe(true)
    expect(parameterMatches('-7.13', -7.13)).toBe(true)
    expect(parameterMatches(8, '8.0')).toBe(true)
    expect(parameterMatches(8, '8.000000')).toBe(true)
    expect(parameterMatches(8, '8.5')).toBe(false)
    expect(parameterMatches(8, '18')).toBe(false)
    expect(parameterMatches(8, '-8')).toBe(false)
    expect(messageMatches(8, 'Invalid attribute Price = 8.00.')).toBe(true)
    expect(messageMatches(8, 'Invalid attribute Price = 8.5.')).toBe(false)
    expect(parameterMatches(1000, '1e3')).toBe(false)
    // a parameter is one whole value, not text to search
    expect(parameterMatches(9917, 'Store 9917')).toBe(false)
    expect(parameterMatches('probe-simple-2', 'probe-simple-2x')).toBe(false)
  })
})

describe('attributeEntries: weighting by rarity', () => {
  it('a value every item shares says nothing', () => {
    const items: BatchItem[] = [
      { index: 0, valid: true, fields: { sku: 'a-1', customer_group: 'ALL GROUPS', website_id: 0 } },
      { index: 1, valid: false, fields: { sku: 'a-2', customer_group: 'ALL GROUPS', website_id: 0 } },
    ]
    const a = attributeEntries(items, [
      { message: 'Customer Group: ALL GROUPS, Website ID: 0', parameters: ['ALL GROUPS', '0'] },
    ])
    expect(a.unattributed).toEqual([0])
    expect(a.ambiguous).toEqual([])
    expect(byItem(a)).toEqual({ 0: [], 1: [] })
  })

  it('one decisive value outweighs any number of shared ones', () => {
    const items: BatchItem[] = [
      { index: 0, valid: false, fields: { sku: 's', price: 1, store_id: 5, qty: 7 } },
      { index: 1, valid: false, fields: { sku: 's', price: 1, store_id: 5, qty: 8 } },
      { index: 2, valid: false, fields: { sku: 'unique-x', price: 2, store_id: 6, qty: 9 } },
    ]
    // s, 1 and 5 are shared by items 0 and 1; unique-x is item 2's alone
    const a = attributeEntries(items, [{ message: '', parameters: ['s', '1', '5', 'unique-x'] }])
    expect(byItem(a)).toEqual({ 0: [], 1: [], 2: [0] })
  })

  it('among items with no decisive value, the rarer shared values decide', () => {
    const items: BatchItem[] = [
      { index: 0, valid: false, fields: { sku: 'p', store_id: 0 } },
      { index: 1, valid: false, fields: { sku: 'p', store_id: 1 } },
      { index: 2, valid: false, fields: { sku: 'q', store_id: 1 } },
      { index: 3, valid: false, fields: { sku: 'r', store_id: 0 } },
    ]
    // p: items 0,1; store 1: items 1,2 → item 1 scores 1, items 0 and 2 score 1/2
    const a = attributeEntries(items, [{ message: '', parameters: ['p', '1'] }])
    expect(byItem(a)).toEqual({ 0: [], 1: [0], 2: [], 3: [] })
  })

  it('decisive values of two different items tie → ambiguous', () => {
    const items: BatchItem[] = [
      { index: 0, valid: false, fields: { sku: 'a' } },
      { index: 1, valid: false, fields: { sku: 'b' } },
    ]
    const a = attributeEntries(items, [{ message: 'a and b', parameters: [] }])
    expect(a.ambiguous).toEqual([{ entry: 0, items: [0, 1] }])
    expect(a.unattributed).toEqual([0])
  })

  it('a single item: its values are decisive', () => {
    const a = attributeEntries(
      [{ index: 4, valid: false, fields: { sku: 'x', store_id: 0 } }],
      [
        { message: 'Store ID: 0', parameters: [] },
        { message: 'nothing', parameters: [] },
      ],
    )
    expect(byItem(a)).toEqual({ 4: [0] })
    expect(a.unattributed).toEqual([1])
  })

  it('uses the items’ own indexes, and refuses two items with one index', () => {
    const a = attributeEntries(
      [
        { index: 7, valid: false, fields: { sku: 'x' } },
        { index: 3, valid: false, fields: { sku: 'y' } },
      ],
      [{ message: '', parameters: ['y'] }],
    )
    expect(byItem(a)).toEqual({ 7: [], 3: [0] })
    expect(() =>
      attributeEntries(
        [
          { index: 1, valid: false, fields: {} },
          { index: 1, valid: true, fields: {} },
        ],
        [],
      ),
    ).toThrow(/two items with index 1/)
  })

  it('empty values say nothing', () => {
    const items: BatchItem[] = [
      { index: 0, valid: true, fields: { sku: 'a', note: '' } },
      { index: 1, valid: false, fields: { sku: 'b', note: 'x' } },
    ]
    const a = attributeEntries(items, [{ message: '', parameters: ['', 'b'] }])
    expect(byItem(a)).toEqual({ 0: [], 1: [0] })
  })

  it('tolerates entries of any shape (attribution never throws on the answer)', () => {
    const a = attributeEntries(
      [{ index: 0, valid: false, fields: { sku: 'x' } }],
      [null, 5, 'x', [], { message: null, parameters: 'x' }],
    )
    expect(a.unattributed).toEqual([0, 1, 2, 3])
    expect(byItem(a)).toEqual({ 0: [4] })
  })
})
