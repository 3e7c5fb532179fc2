/**
 * What the shop's schema says of a body that failed: read from a document shaped as the platform publishes its own
 * (Swagger 2.0, contract types as `$ref`d definitions, snake_case properties, `required` lists).
 */
import { describe, expect, it } from 'vitest'
import { bodyKeyPaths, declaredBodies, readBody } from './bodies.ts'
import { readDocument } from './read.ts'

const ref = (name: string) => ({ $ref: `#/definitions/${name}` })
const body = (name: string, schema: unknown) => [{ name, in: 'body', required: true, schema }]

const DOCUMENT = {
  swagger: '2.0',
  paths: {
    '/V1/inventory/source-selection-algorithm-result': {
      post: {
        parameters: body('postBody', {
          type: 'object',
          required: ['inventoryRequest', 'algorithmCode'],
          properties: { inventoryRequest: ref('inventory-request'), algorithmCode: { type: 'string' } },
        }),
      },
    },
    '/V1/configurable-products/{sku}/options/{id}': {
      put: {
        parameters: [
          { name: 'sku', in: 'path' },
          { name: 'id', in: 'path' },
          ...body('putBody', { type: 'object', properties: { option: ref('option') } }),
        ],
      },
    },
    '/V1/categories/{id}': {
      put: { parameters: body('putBody', { type: 'object', properties: { category: ref('category') } }) },
    },
    '/V1/categories/tree': {
      put: { parameters: body('treeBody', { type: 'object', properties: { tree: { type: 'object' } } }) },
    },
    '/V1/carts/mine': { post: { parameters: [] } },
  },
  definitions: {
    'inventory-request': {
      type: 'object',
      required: ['stock_id', 'items'],
      properties: {
        stock_id: { type: 'integer' },
        items: { type: 'array', items: ref('item-request') },
        extension_attributes: { type: 'object' },
      },
    },
    'item-request': {
      type: 'object',
      required: ['sku', 'qty'],
      properties: { sku: { type: 'string' }, qty: { type: 'number' } },
    },
    option: {
      type: 'object',
      properties: {
        attribute_id: { type: 'string' },
        label: { type: 'string' },
        values: { type: 'array', items: ref('option-value') },
      },
    },
    'option-value': { type: 'object', properties: { value_index: { type: 'integer' } } },
    // A contract type that holds its own kind (a category's children): read once, its keys shared.
    category: {
      type: 'object',
      properties: { name: { type: 'string' }, children_data: { type: 'array', items: ref('category') } },
    },
  },
}

const read = readDocument(DOCUMENT, 'admin')
if (!read.ok) throw new Error(read.reason)
const bodies = declaredBodies(read.schema)
const SELECTION = '/V1/inventory/source-selection-algorithm-result'

describe("whether the shop's schema documents the body that failed", () => {
  it("the platform's own documented body (2.4.7: `inventoryRequest.stock_id`, answered 500): documented, down through its $refs and lists", () => {
    const sent = { inventoryRequest: { stock_id: 1, items: [{ sku: 'sc-1', qty: 1 }] }, algorithmCode: 'priority' }
    expect(readBody(bodies, 'POST', SELECTION, sent)).toEqual({
      documents: true,
      says: `the shop's schema declares POST ${SELECTION} with a body of every key sent, and none it requires is missing`,
    })
    expect(bodyKeyPaths(sent)).toEqual([
      'inventoryRequest.stock_id',
      'inventoryRequest.items[].sku',
      'inventoryRequest.items[].qty',
      'algorithmCode',
    ])
  })

  it('a key in the other of the two forms the platform takes (`stockId` for `stock_id`) is the key the schema declares', () => {
    const camel = readBody(bodies, 'POST', SELECTION, {
      inventoryRequest: { stockId: 1, items: [{ sku: 'sc-1', qty: 1 }] },
      algorithm_code: 'priority',
    })
    expect(camel).toMatchObject({ documents: true })
  })

  it('a key the schema does not declare, or one it requires not sent: not documented, and which', () => {
    const odd = readBody(bodies, 'POST', SELECTION, {
      inventoryRequest: {
        stock: 1,
        items: [
          { sku: 'sc-1', qty: 1 },
          { sku: 'sc-2', qty: 1, lot: 'x' },
        ],
      },
      algorithmCode: 'priority',
    })
    expect(odd).toEqual({
      documents: false,
      says: `the shop's schema declares POST ${SELECTION} with a body, but does not declare inventoryRequest.stock, inventoryRequest.items[].lot, and requires inventoryRequest.stock_id, not sent`,
    })
    expect(readBody(bodies, 'POST', SELECTION, {})).toMatchObject({
      documents: false,
      says: expect.stringMatching(/requires inventoryRequest, algorithmCode, not sent$/),
    })
  })

  it('reads the operation of a concrete path (the most literal template), nothing below a free-form object, and a type that holds itself', () => {
    expect(
      readBody(bodies, 'PUT', '/V1/configurable-products/sc-1/options/7', {
        option: { attribute_id: '139', values: [{ value_index: 6 }] },
      }).documents,
    ).toBe(true)
    expect(readBody(bodies, 'PUT', '/V1/categories/tree', { tree: { anything: { at: 'all' } } })).toMatchObject({
      documents: true,
      says: expect.stringContaining('PUT /V1/categories/tree'),
    })
    expect(
      readBody(bodies, 'PUT', '/V1/categories/5', {
        category: { name: 'a', children_data: [{ name: 'b', children_data: [{ name: 'c', colour: 'red' }] }] },
      }),
    ).toMatchObject({
      documents: false,
      says: expect.stringMatching(/does not declare category\.children_data\[\]\.children_data\[\]\.colour$/),
    })
  })

  it('an operation the schema declares without a body, or not at all: not documented', () => {
    expect(readBody(bodies, 'POST', '/V1/carts/mine', {})).toEqual({
      documents: false,
      says: "the shop's schema declares POST /V1/carts/mine without a body",
    })
    expect(readBody(bodies, 'POST', '/V1/carts/mine/items', { cartItem: {} })).toEqual({
      documents: false,
      says: "the shop's schema does not declare this operation",
    })
    expect(readBody(bodies, 'GET', SELECTION, {})).toMatchObject({ documents: false })
  })

  it('names every key a body sends as a path, the first few of a long one', () => {
    expect(bodyKeyPaths({ a: { b: [1, 2], c: {} }, d: [{ e: null }] })).toEqual(['a.b[]', 'a.c', 'd[].e'])
    expect(bodyKeyPaths({})).toEqual([])
    expect(bodyKeyPaths(Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, i])), 3)).toEqual([
      'k0',
      'k1',
      'k2',
    ])
  })
})
