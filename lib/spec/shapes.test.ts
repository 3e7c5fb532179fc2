import { existsSync, readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Ajv, type ValidateFunction } from 'ajv'
import { describe, expect, it } from 'vitest'
import { listedFields, TABLED_SHAPES, type ShapeName } from './shapes.ts'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const SHARED = resolve(ROOT, '../shared/spec/commerce-rest-interface.md')
const SPEC = readFileSync(
  existsSync(SHARED) ? SHARED : resolve(ROOT, 'lib/spec/source/commerce-rest-interface.md'),
  'utf8',
)
const RESPONSES = resolve(ROOT, 'fixtures/observations/responses-2.4.7')

type Json = null | boolean | number | string | Json[] | { [k: string]: Json }
const body = (file: string): any =>
  (JSON.parse(readFileSync(resolve(RESPONSES, file), 'utf8')) as { response: { body: Json } }).response.body
const clone = <T>(x: T): T => structuredClone(x)

const ajv = new Ajv({ allErrors: true, strict: true })
for (const schema of Object.values(TABLED_SHAPES)) ajv.addSchema(schema)
const validator = (name: ShapeName): ValidateFunction => {
  const v = ajv.getSchema(TABLED_SHAPES[name].$id as string)
  if (!v) throw new Error(`schema ${name} not compiled`)
  return v
}
function expectValid(name: ShapeName, data: unknown, what: string): void {
  const v = validator(name)
  const ok = v(data)
  expect(ok, `${what} against ${name}: ${ajv.errorsText(v.errors)}`).toBe(true)
}
function expectInvalid(name: ShapeName, data: unknown, what: string, at?: string): void {
  const v = validator(name)
  expect(v(data), `${what} should fail ${name}`).toBe(false)
  if (at)
    expect(
      v.errors?.map((e) => e.instancePath),
      what,
    ).toContain(at)
}

// --- the field lists, read from the spec text -----------------------------------------------------------

type SpecType = 'string' | 'number' | 'object' | 'array'
type FieldMap = Map<string, { type: SpecType; nested?: FieldMap }>

function typeWord(text: string): SpecType {
  const w = text
    .trim()
    .toLowerCase()
    .split(/[\s,;)]/)[0]!
  const t = (
    {
      string: 'string',
      strings: 'string',
      number: 'number',
      numbers: 'number',
      object: 'object',
      array: 'array',
    } as const
  )[w as 'string']
  if (!t) throw new Error(`unknown type word in the spec: ${text}`)
  return t
}

/**
 * "`a` (string), `b`, `c` (numbers), `d` (object)"; "strings `a`, `b`; numbers `c`"; with a default type
 * for names that get none ("String fields: `a`, `b`.").
 */
function parseInlineFields(text: string, defaultType?: SpecType): FieldMap {
  const out: FieldMap = new Map()
  for (const segment of text.split(/;\s*/)) {
    const lead = /^\s*(strings|numbers)\b/.exec(segment)
    let pending: string[] = []
    const assign = (t: SpecType) => {
      for (const n of pending) out.set(n, { type: t })
      pending = []
    }
    for (const m of segment.matchAll(/`([A-Za-z_]\w*)`|\(([^)]*)\)/g)) {
      if (m[1] !== undefined) pending.push(m[1])
      else assign(typeWord(m[2]!))
    }
    if (pending.length) {
      const t = lead ? typeWord(lead[1]!) : defaultType
      if (!t) throw new Error(`no type for ${pending.join(', ')} in: ${segment}`)
      assign(t)
    }
  }
  return out
}

function cells(line: string): string[] {
  return line
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split('|')
    .map((c) => c.trim())
}
const names = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!)

// The credit memo section's labelled lines: the shape each fills (else the credit memo) and the type it states.
const CREDIT_MEMO_PART: Readonly<Record<string, ShapeName>> = {
  'Comment object': 'creditmemoComment',
  'Item object': 'creditmemoItem',
}
const LABEL_TYPE: Readonly<Record<string, SpecType>> = { 'String fields': 'string', 'Number fields': 'number' }
// The other sections' headings, by how they start, and the shape each tables.
const SECTION_SHAPE: readonly (readonly [string, ShapeName])[] = [
  ['Order address', 'orderAddress'],
  ['Quote billing / cart address', 'cartAddress'],
  ['Attribute set', 'attributeSet'],
]

/** Field lists per schema, as the spec's § Resources and their fields gives them. */
function specShapes(md: string): Record<ShapeName, FieldMap> {
  const start = md.indexOf('\n## Resources and their fields')
  const end = md.indexOf('\n## ', start + 1)
  const section = md.slice(start, end)
  const out = {} as Record<ShapeName, FieldMap>
  const add = (name: ShapeName, fields: FieldMap) => {
    const m = out[name] ?? new Map()
    for (const [k, v] of fields) m.set(k, v)
    out[name] = m
  }
  for (const sub of section.split('\n### ').slice(1)) {
    const [heading, ...lines] = sub.split('\n')
    const h = heading!.trim()
    const tableRows = lines.filter((l) => l.startsWith('|')).slice(2) // header and separator dropped
    if (h.startsWith('Credit memo')) {
      for (const line of lines) {
        const m = /^(String fields|Number fields|Other fields|Comment object|Item object):\s*(.*)$/.exec(line)
        if (!m) continue
        const [, label, rest] = m
        const target = CREDIT_MEMO_PART[label!] ?? 'creditmemo'
        add(target, parseInlineFields(rest!, LABEL_TYPE[label!]))
      }
    } else if (h.startsWith('Refund request parts')) {
      const byObject: Record<string, ShapeName> = {
        arguments: 'refundArguments',
        comment: 'refundComment',
        'items[]': 'refundItem',
      }
      for (const row of tableRows) {
        const [obj, fields] = cells(row)
        const target = byObject[names(obj!)[0]!]
        if (!target) throw new Error(`unknown refund part: ${obj}`)
        add(target, parseInlineFields(fields!))
      }
    } else {
      const target = SECTION_SHAPE.find(([lead]) => h.startsWith(lead))?.[1]
      if (!target) {
        if (tableRows.length || lines.some((l) => /fields:/.test(l)))
          throw new Error(`a tabled shape with no schema: ${h}`)
        continue
      }
      for (const row of tableRows) {
        const [fieldCell, typeCell] = cells(row)
        const type = typeWord(typeCell!)
        const nestedNames = names(typeCell!)
        const nested = nestedNames.length ? parseInlineFields(typeCell!.replace(/^[^`]*/, '')) : undefined
        const m: FieldMap = new Map()
        for (const n of names(fieldCell!)) m.set(n, nested ? { type, nested } : { type })
        add(target, m)
      }
    }
  }
  return out
}

const SHAPES = specShapes(SPEC)

describe('schemas against the spec text', () => {
  it('the spec tables a shape for every schema, and every tabled shape has a schema', () => {
    expect(Object.keys(SHAPES).sort()).toEqual(Object.keys(TABLED_SHAPES).sort())
  })

  it('reads the spec field lists (sanity: counts from the spec)', () => {
    const sizes = Object.fromEntries(Object.entries(SHAPES).map(([k, v]) => [k, v.size]))
    expect(sizes).toEqual({
      creditmemo: 9 + 39 + 3,
      creditmemoComment: 7,
      creditmemoItem: 5 + 28 + 1,
      orderAddress: 18 + 7 + 2,
      cartAddress: 15 + 6 + 3,
      attributeSet: 5,
      refundArguments: 4,
      refundComment: 3,
      refundItem: 3,
    })
  })

  for (const name of Object.keys(TABLED_SHAPES) as ShapeName[]) {
    it(`${name}: every field the spec lists is in the schema with the spec's type (or null), and no other`, () => {
      const spec = SHAPES[name]
      const props = TABLED_SHAPES[name].properties as Record<string, any>
      const problems: string[] = []
      for (const [field, { type, nested }] of spec) {
        const p = props[field]
        if (!p) {
          problems.push(`missing: ${field} (${type})`)
          continue
        }
        if (JSON.stringify(p.type) !== JSON.stringify([type, 'null']))
          problems.push(`${field}: type ${JSON.stringify(p.type)}, spec ${type}`)
        for (const [n, t] of nested ?? []) {
          const np = p.items?.properties?.[n]
          if (JSON.stringify(np?.type) !== JSON.stringify([t.type, 'null']))
            problems.push(`${field}[].${n}: ${JSON.stringify(np?.type)}, spec ${t.type}`)
        }
      }
      for (const field of Object.keys(props)) if (!spec.has(field)) problems.push(`not in the spec: ${field}`)
      expect(problems, problems.join('\n')).toEqual([])
      expect([...listedFields(name)].sort()).toEqual([...spec.keys()].sort())
    })
  }

  it('no schema requires a field or refuses unlisted ones; every schema has a stable, distinct $id', () => {
    const ids = new Set<string>()
    const walk = (s: any, where: string): void => {
      if (!s || typeof s !== 'object') return
      expect(s.required, `${where}: required`).toBeUndefined()
      expect(s.additionalProperties, `${where}: additionalProperties`).toBeUndefined()
      for (const [k, v] of Object.entries(s.properties ?? {})) walk(v, `${where}.${k}`)
      if (s.items) walk(s.items, `${where}[]`)
    }
    for (const [name, schema] of Object.entries(TABLED_SHAPES)) {
      walk(schema, name)
      expect(schema.$schema).toBe('http://json-schema.org/draft-07/schema#')
      expect(schema.$id).toMatch(/^https:\/\/[^/]+\/.+\.json$/)
      ids.add(schema.$id as string)
    }
    expect(ids.size).toBe(Object.keys(TABLED_SHAPES).length)
  })

  it('street is an array with an unconstrained element; extension_attributes a free object', () => {
    for (const name of ['orderAddress', 'cartAddress'] as const) {
      expect(TABLED_SHAPES[name].properties.street).toEqual({ type: ['array', 'null'] })
    }
    for (const [name, schema] of Object.entries(TABLED_SHAPES)) {
      expect(schema.properties.extension_attributes, name).toEqual({ type: ['object', 'null'] })
    }
  })

  it("the credit memo's nested comment and item shapes are the comment and item schemas", () => {
    const p = TABLED_SHAPES.creditmemo.properties
    expect(p.comments.items.properties).toEqual(TABLED_SHAPES.creditmemoComment.properties)
    expect(p.items.items.properties).toEqual(TABLED_SHAPES.creditmemoItem.properties)
  })

  it('each schema compiles alone too (self-contained, strict)', () => {
    for (const schema of Object.values(TABLED_SHAPES)) {
      expect(() => new Ajv({ allErrors: true, strict: true }).compile(schema)).not.toThrow()
    }
  })
})

describe('real answers (2.4.7) validate', () => {
  const creditmemoFiles = [
    'creditmemo-invoice-refund-zero-total.json',
    'creditmemo-order-refund-empty-body.json',
    'creditmemo-order-refund-with-arguments.json',
  ]

  it('credit memos', () => {
    for (const f of creditmemoFiles) expectValid('creditmemo', body(f), f)
    // the fixture really has the null the platform sends
    expect(body('creditmemo-order-refund-with-arguments.json').items[0].base_cost).toBeNull()
  })

  it('credit memo comments (items[] of the comments list)', () => {
    const items = body('creditmemo-comments.json').items as unknown[]
    expect(items.length).toBeGreaterThan(0)
    items.forEach((c, i) => expectValid('creditmemoComment', c, `creditmemo-comments.json items[${i}]`))
  })

  it('order addresses: billing and shipping', () => {
    const order = body('order.json')
    expectValid('orderAddress', order.billing_address, 'order.json billing_address')
    const assignments = order.extension_attributes.shipping_assignments as any[]
    expect(assignments.length).toBeGreaterThan(0)
    assignments.forEach((a, i) =>
      expectValid('orderAddress', a.shipping.address, `shipping_assignments[${i}].shipping.address`),
    )
  })

  it('cart billing address', () => {
    expectValid('cartAddress', body('cart-billing-address.json'), 'cart-billing-address.json')
  })

  it('attribute set', () => {
    expectValid('attributeSet', body('attribute-set.json'), 'attribute-set.json')
  })

  it('refund request parts as the platform conventions send them', () => {
    expectValid('refundArguments', { shipping_amount: 0, adjustment_positive: 1, adjustment_negative: 0 }, 'arguments')
    expectValid('refundComment', { comment: 'probe refund', is_visible_on_front: 0 }, 'comment')
    expectValid('refundItem', { order_item_id: 2, qty: 1 }, 'items[]')
  })

  it('absent fields, null fields and unlisted fields pass', () => {
    for (const name of Object.keys(TABLED_SHAPES) as ShapeName[]) {
      expectValid(name, {}, `${name}: {}`)
      expectValid(name, Object.fromEntries(listedFields(name).map((f) => [f, null])), `${name}: all null`)
      expectValid(name, { not_in_the_spec: 'x', another: [1] }, `${name}: unlisted fields`)
    }
  })
})

describe('broken variants fail', () => {
  it('a number sent as a string', () => {
    const cm = clone(body('creditmemo-order-refund-with-arguments.json'))
    cm.grand_total = '21'
    expectInvalid('creditmemo', cm, 'grand_total "21"', '/grand_total')
    const item = clone(body('creditmemo-order-refund-with-arguments.json'))
    item.items[0].qty = '2'
    expectInvalid('creditmemo', item, 'items[0].qty "2"', '/items/0/qty')
    const comment = clone(body('creditmemo-comments.json').items[0])
    comment.entity_id = '1'
    expectInvalid('creditmemoComment', comment, 'comment entity_id "1"', '/entity_id')
    const addr = clone(body('cart-billing-address.json'))
    addr.region_id = '57'
    expectInvalid('cartAddress', addr, 'region_id "57"', '/region_id')
    expectInvalid('refundItem', { order_item_id: 2, qty: '1' }, 'refund qty "1"', '/qty')
    expectInvalid('refundArguments', { shipping_amount: '0' }, 'shipping_amount "0"', '/shipping_amount')
  })

  it('a string sent as a number', () => {
    const cm = clone(body('creditmemo-order-refund-with-arguments.json'))
    cm.increment_id = 1
    expectInvalid('creditmemo', cm, 'increment_id 1', '/increment_id')
    expectInvalid('refundComment', { comment: 5 }, 'comment 5', '/comment')
  })

  it('items (and comments) as an object', () => {
    const cm = clone(body('creditmemo-order-refund-with-arguments.json'))
    cm.items = cm.items[0]
    expectInvalid('creditmemo', cm, 'items as an object', '/items')
    const cm2 = clone(body('creditmemo-order-refund-with-arguments.json'))
    cm2.comments = { 0: cm2.comments[0] }
    expectInvalid('creditmemo', cm2, 'comments as an object', '/comments')
    const cm3 = clone(body('creditmemo-order-refund-with-arguments.json'))
    cm3.items = ['not an item']
    expectInvalid('creditmemo', cm3, 'an item that is not an object', '/items/0')
  })

  it('street as a string', () => {
    const order = clone(body('order.json'))
    order.billing_address.street = '1 Main St'
    expectInvalid('orderAddress', order.billing_address, 'order street as a string', '/street')
    const addr = clone(body('cart-billing-address.json'))
    addr.street = '1 Main St'
    expectInvalid('cartAddress', addr, 'cart street as a string', '/street')
  })

  it('attribute_set_id as a string', () => {
    const set = clone(body('attribute-set.json'))
    set.attribute_set_id = '9'
    expectInvalid('attributeSet', set, 'attribute_set_id "9"', '/attribute_set_id')
  })

  it('extension_attributes not an object; custom_attributes of the wrong shape; a body that is not an object', () => {
    expectInvalid('attributeSet', { extension_attributes: [] }, 'extension_attributes []', '/extension_attributes')
    expectInvalid('attributeSet', { extension_attributes: 'x' }, 'extension_attributes "x"', '/extension_attributes')
    expectInvalid(
      'cartAddress',
      { custom_attributes: { attribute_code: 'a', value: 'b' } },
      'custom_attributes object',
      '/custom_attributes',
    )
    expectInvalid(
      'cartAddress',
      { custom_attributes: ['a'] },
      'custom_attributes element a string',
      '/custom_attributes/0',
    )
    expectInvalid(
      'cartAddress',
      { custom_attributes: [{ attribute_code: 'a', value: 5 }] },
      'custom_attributes value 5',
      '/custom_attributes/0/value',
    )
    expectValid('cartAddress', { custom_attributes: [{ attribute_code: 'a', value: 'b' }] }, 'custom_attributes ok')
    expectValid('orderAddress', { street: [{}, 'x'] }, 'street element unconstrained')
    for (const name of Object.keys(TABLED_SHAPES) as ShapeName[]) {
      expectInvalid(name, [], `${name}: an array body`)
      expectInvalid(name, null, `${name}: a null body`)
      expectInvalid(name, '9', `${name}: a string body`)
    }
  })
})
