import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { CATALOG } from '../spec/catalog/index.ts'
import { compareWithSpec } from './compare.ts'
import type { SchemaComparison, SchemaFinding } from './compare.ts'
import { mergeViews } from './read.ts'
import type { SchemaCaller } from './read.ts'
import { handmadeDocument, handmadeSchema, readOk } from './testing.ts'

const SPEC = readFileSync(new URL('../spec/source/commerce-rest-interface.md', import.meta.url), 'utf8').replace(
  /\s+/g,
  ' ',
)

/** The hand-made views, each changed by `edit` first (given the caller's document). */
function views(edit: (doc: Record<string, any>, caller: SchemaCaller) => void = () => undefined) {
  return mergeViews(
    (['anon', 'customer', 'admin'] as const).map((caller) => {
      const doc = handmadeDocument(caller)
      edit(doc, caller)
      return readOk(doc, caller)
    }),
  )
}

/** The findings other than the spec endpoints a small hand-made subset leaves out. */
const beyondSubset = (c: SchemaComparison) => c.findings.filter((f) => f.kind !== 'undeclared-spec-endpoint')

function expectQuoted(findings: readonly SchemaFinding[]): void {
  for (const f of findings) {
    expect(f.specWords.length, f.message).toBeGreaterThan(0)
    for (const words of f.specWords)
      expect(SPEC.includes(words.replace(/\s+/g, ' ')), `${f.kind}: "${words}"`).toBe(true)
    expect(f.message).not.toContain('\n')
  }
}

describe('the hand-made platform-style schema', () => {
  const comparison = compareWithSpec(handmadeSchema())

  it('agrees with the spec wherever it declares a spec endpoint: access classes, body keys, field types (ids integer, amounts number)', () => {
    expect(beyondSubset(comparison)).toEqual([])
    expect(comparison.notJudged).toEqual([])
    expect(comparison.declaredSpecEndpoints).toBe(19)
  })

  it('reports every spec endpoint the subset leaves out as undeclared, POST /V1/customers/activate among them', () => {
    const undeclared = comparison.findings.filter((f) => f.kind === 'undeclared-spec-endpoint')
    expect(undeclared).toHaveLength(CATALOG.length - 19)
    expect(undeclared.find((f) => f.operation === 'POST /V1/customers/activate')).toMatchObject({
      declared: 'not declared',
      spec: 'listed',
      section: 'Endpoints › Endpoint lists by module › Customer',
      message:
        'POST /V1/customers/activate: a spec endpoint that the schemas read (anonymous, customer, admin) do not declare',
    })
    expectQuoted(undeclared)
  })

  it("takes the mine estimate's cart from the token: declaring only `address` is a reading the spec allows, declaring no address is not", () => {
    const estimate = 'POST /V1/carts/mine/estimate-shipping-methods'
    expect(comparison.findings.filter((f) => f.operation === estimate)).toEqual([])
    const withoutAddress = compareWithSpec(
      views((doc) => {
        const op = doc.paths['/V1/carts/mine/estimate-shipping-methods']?.post
        if (op !== undefined) op.parameters[0].schema.properties = {}
      }),
    )
    expect(beyondSubset(withoutAddress)).toEqual([
      expect.objectContaining({
        kind: 'body-keys-differ',
        operation: estimate,
        declared: 'none',
        spec: '`cartId`, `address`',
      }),
    ])
  })
})

describe('each kind of disagreement, found at its operation and nowhere else', () => {
  it('an undeclared spec endpoint', () => {
    const c = compareWithSpec(views((doc) => delete doc.paths['/V1/modules']))
    const before = new Set(compareWithSpec(handmadeSchema()).findings.map((f) => `${f.kind} ${f.operation}`))
    expect(c.findings.filter((f) => !before.has(`${f.kind} ${f.operation}`))).toEqual([
      expect.objectContaining({ kind: 'undeclared-spec-endpoint', operation: 'GET /V1/modules' }),
    ])
  })

  it("an access class: an admin operation in the anonymous schema, a self one in no customer's", () => {
    const c = compareWithSpec(
      views((doc, caller) => {
        if (caller === 'anon') doc.paths['/V1/modules'] = handmadeDocument('admin').paths['/V1/modules']
        if (caller === 'customer') delete doc.paths['/V1/customers/me']
      }),
    )
    expect(beyondSubset(c)).toEqual([
      expect.objectContaining({
        kind: 'access-class-differs',
        operation: 'GET /V1/modules',
        declared: 'anon',
        spec: 'admin',
        message:
          "GET /V1/modules: the shop's schema lists it for anonymous callers (declared anon); the spec's access class is admin",
      }),
      expect.objectContaining({
        kind: 'access-class-differs',
        operation: 'GET /V1/customers/me',
        declared: 'admin',
        spec: 'self',
        message:
          "GET /V1/customers/me: the shop's schema lists it for admins only, the platform's known way of publishing a `mine` method that also has an admin route (its webapi.xml); the spec's access class is self, and the suite checks it as self",
      }),
    ])
    expectQuoted(c.findings)
  })

  it('a field type: only a real contradiction, once per field of an operation however many places declare it', () => {
    const c = compareWithSpec(
      views((doc) => {
        const creditmemo = doc.definitions['sales-data-creditmemo-interface']
        if (creditmemo === undefined) return
        creditmemo.properties.grand_total = { type: 'string' } // a number field declared a string
        creditmemo.properties.state = { type: ['boolean', 'null'] } // nor may it be a boolean
        creditmemo.properties.subtotal = { type: 'integer' } // integer is a number: the spec does not separate them
        creditmemo.properties.tax_amount = { type: 'file' } // a type this reader does not know: not judged
        delete creditmemo.properties.base_grand_total // not declared: nothing to contradict
        doc.definitions['sales-data-creditmemo-item-interface'].properties.qty = { type: 'string' }
        doc.definitions['sales-data-creditmemo-item-creation-interface'].properties.qty = { type: 'boolean' }
      }),
    )
    const found = beyondSubset(c).map((f) => [f.operation, f.field, f.declared, f.spec])
    expect(found).toEqual([
      ['POST /V1/creditmemo', 'grand_total', 'string', 'number'],
      ['POST /V1/creditmemo', 'state', 'boolean', 'number'],
      ['POST /V1/creditmemo', 'items[].qty', 'string', 'number'],
      ['POST /V1/order/:orderId/refund', 'qty', 'boolean', 'number'],
    ])
    expect(beyondSubset(c)[0]).toMatchObject({
      section: 'Resources and their fields › Credit memo (CreditmemoInterface)',
      message:
        "POST /V1/creditmemo: the shop's schema declares grand_total of the Credit memo (CreditmemoInterface) (body `entity`, the 200 answer) as string; the spec tables it as number",
    })
    expectQuoted(c.findings)
  })

  it('a field type at the root: a tabled answer declared an integer, a list of refund items declared one object', () => {
    const c = compareWithSpec(
      views((doc) => {
        const save = doc.paths['/V1/creditmemo']?.post
        if (save !== undefined) save.responses['200'].schema = { type: 'integer' }
        const refund = doc.paths['/V1/order/{orderId}/refund']?.post
        if (refund !== undefined)
          refund.parameters[1].schema.properties.items = {
            $ref: '#/definitions/sales-data-creditmemo-item-creation-interface',
          }
      }),
    )
    expect(beyondSubset(c).map((f) => [f.operation, f.field, f.declared, f.spec])).toEqual([
      ['POST /V1/creditmemo', '(the whole value)', 'number', 'object'],
      ['POST /V1/order/:orderId/refund', '(the whole value)', 'object', 'array'],
    ])
  })

  it('body keys: a missing key and one the spec does not name, or no body at all', () => {
    const c = compareWithSpec(
      views((doc) => {
        const refund = doc.paths['/V1/order/{orderId}/refund']?.post
        if (refund !== undefined) {
          const props = refund.parameters[1].schema.properties
          delete props.notify
          props.notifyCustomer = { type: 'boolean' }
        }
        const save = doc.paths['/V1/eav/attribute-sets/{attributeSetId}']?.put
        if (save !== undefined) save.parameters = save.parameters.filter((p: any) => p.in !== 'body')
      }),
    )
    expect(beyondSubset(c)).toEqual([
      expect.objectContaining({
        kind: 'body-keys-differ',
        operation: 'PUT /V1/eav/attribute-sets/:attributeSetId',
        declared: 'no body parameter',
        spec: '`attributeSet`',
        message:
          "PUT /V1/eav/attribute-sets/:attributeSetId: the shop's schema declares no body parameter; the spec's body keys are `attributeSet`",
      }),
      expect.objectContaining({
        kind: 'body-keys-differ',
        operation: 'POST /V1/order/:orderId/refund',
        declared: '`items`, `appendComment`, `comment`, `arguments`, `notifyCustomer`',
        spec: '`appendComment`, `arguments`, `comment`, `items`, `notify`',
        message:
          "POST /V1/order/:orderId/refund: the shop's schema declares the body keys `items`, `appendComment`, `comment`, `arguments`, `notifyCustomer` (without `notify`; with `notifyCustomer`, which the spec does not name); the spec's body keys are `appendComment`, `arguments`, `comment`, `items`, `notify`",
      }),
    ])
    expectQuoted(c.findings)
  })
})

describe('what cannot be compared is said, not guessed', () => {
  it('a single document (a file or a URL): no access class, but every spec endpoint it lacks', () => {
    const c = compareWithSpec(readOk(handmadeDocument('admin')))
    expect(c.notJudged).toEqual([
      { kind: 'access-class-differs', reason: expect.stringMatching(/without caller views/) },
    ])
    expect(c.findings.filter((f) => f.kind === 'access-class-differs')).toEqual([])
    expect(c.findings.filter((f) => f.kind === 'undeclared-spec-endpoint')).toHaveLength(CATALOG.length - 19)
  })

  it("without the admin's view, no spec endpoint is called undeclared; without the customer's, no access class", () => {
    const c = compareWithSpec(
      mergeViews([readOk(handmadeDocument('anon'), 'anon'), readOk(handmadeDocument('customer'), 'customer')]),
    )
    expect(c.notJudged.map((n) => n.kind)).toEqual(['undeclared-spec-endpoint', 'access-class-differs'])
    expect(c.findings).toEqual([])
  })
})

describe('path aliases', () => {
  const vendor = () => {
    const doc = handmadeDocument('admin')
    doc.paths['/V1/adobestock/asset/list'] = {
      get: { operationId: 'stockMediaAssetList', responses: { 200: { description: '200 Success.' } } },
    }
    return readOk(doc)
  }

  it('find a spec endpoint the shop serves under its own prefix', () => {
    const aliased = compareWithSpec(vendor(), {
      targetPath: (p) => p.replace(/^\/V1\/stockmedia\//, '/V1/adobestock/'),
    })
    expect(aliased.findings.some((f) => f.operation === 'GET /V1/stockmedia/asset/list')).toBe(false)
    expect(compareWithSpec(vendor()).findings.some((f) => f.operation === 'GET /V1/stockmedia/asset/list')).toBe(true)
  })
})
