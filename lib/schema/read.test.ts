/**
 * Reading a shop's schema documents handed over (hand-made, or broken in each part): no target. The reference
 * target's own published views: schema-e2e.test.ts.
 */
import { describe, expect, it } from 'vitest'
import {
  accessUnknownBecause,
  declaredAccess,
  mergeViews,
  operationKey,
  readDocument,
  resolveRef,
  suitePath,
} from './read.ts'
import type { DeclaredSchema } from './read.ts'
import { handmadeDocument, handmadeSchema, readOk } from './testing.ts'
import { endpointText } from '../spec/endpoint-id.ts'

const find = (schema: DeclaredSchema, method: string, path: string) =>
  schema.operations.find((op) => op.method === method && op.path === path)

describe('a platform-style document (hand-made)', () => {
  it("gives each operation in the suite's path form, with its id, body keys and schema references", () => {
    const anon = readOk(handmadeDocument('anon'), 'anon')
    expect(anon.problems).toEqual([])
    expect(anon.views).toEqual(['anon'])
    expect(anon.operations).toHaveLength(8)
    expect(find(anon, 'POST', '/V1/guest-carts/:cartId/billing-address')).toMatchObject({
      operationId: 'quoteGuestBillingAddressManagementV1AssignPost',
      bodyKeys: ['address', 'useForShipping'],
      callers: new Set(['anon']),
    })
    const admin = readOk(handmadeDocument('admin'))
    expect(admin.views).toEqual([])
    const creditmemo = find(admin, 'POST', '/V1/creditmemo')!
    expect(creditmemo).toMatchObject({
      bodyKeys: ['entity'],
      responseSchemaRef: '#/definitions/sales-data-creditmemo-interface',
      callers: new Set(),
    })
    // the platform's body schema is inline, its keys the contract's parameters
    expect(creditmemo.bodySchemaRef).toBeUndefined()
    expect(find(admin, 'GET', '/V1/modules')?.bodyKeys).toBeUndefined()
    expect(resolveRef(creditmemo.responseSchema, admin.definitions)?.properties).toHaveProperty('entity_id', {
      type: 'integer',
      description: 'Credit memo entity id.',
    })
  })

  it('merges the three caller views, each operation listed for the callers whose view has it', () => {
    const schema = handmadeSchema()
    expect(schema.views).toEqual(['anon', 'customer', 'admin'])
    expect(schema.operations).toHaveLength(26)
    const callers = (method: string, path: string) => [...find(schema, method, path)!.callers].sort()
    expect(callers('POST', '/V1/integration/admin/token')).toEqual(['admin', 'anon', 'customer'])
    expect(callers('GET', '/V1/customers/me')).toEqual(['admin', 'customer'])
    expect(callers('POST', '/V1/creditmemo')).toEqual(['admin'])
    expect(declaredAccess(find(schema, 'POST', '/V1/integration/admin/token')!, schema.views)).toBe('anon')
    expect(declaredAccess(find(schema, 'GET', '/V1/customers/me')!, schema.views)).toBe('self')
    expect(declaredAccess(find(schema, 'POST', '/V1/creditmemo')!, schema.views)).toBe('admin')
  })

  it('derives no access class without all three views: self and admin cannot be told apart, a single document has none', () => {
    const noCustomer = mergeViews([
      readOk(handmadeDocument('anon'), 'anon'),
      readOk(handmadeDocument('admin'), 'admin'),
    ])
    expect(declaredAccess(find(noCustomer, 'GET', '/V1/customers/me')!, noCustomer.views)).toBeUndefined()
    expect(accessUnknownBecause(noCustomer.views)).toMatch(/customer caller's schema was not read/)
    expect(accessUnknownBecause([])).toMatch(/without caller views/)
    expect(accessUnknownBecause(['anon', 'customer', 'admin'])).toBeUndefined()
  })
})

describe('a document that is no schema, or a broken one', () => {
  it('is refused with the reason, in one line', () => {
    for (const [doc, reason] of [
      [null, /null, not a Swagger 2.0 object/],
      [[], /a JSON array/],
      ['<html>', /a JSON string/],
      [{ openapi: '3.0.1', paths: {} }, /an OpenAPI 3\.0\.1 document, not a Swagger 2\.0 schema/],
      [{ swagger: 2, paths: {} }, /"swagger": 2,/],
      [{ paths: {} }, /without "swagger": "2.0"/],
      [{ swagger: '2.0' }, /without a "paths" object/],
      [{ swagger: '2.0', paths: [] }, /without a "paths" object/],
    ] as const) {
      const read = readDocument(doc)
      expect(read.ok, JSON.stringify(doc)).toBe(false)
      if (!read.ok) {
        expect(read.reason).toMatch(reason)
        expect(read.reason).not.toContain('\n')
      }
    }
  })

  it('keeps what it can read and names what it left out', () => {
    const read = readOk({
      swagger: '2.0',
      definitions: { good: { type: 'object', properties: { a: { type: 'string' } } }, bad: 7 },
      parameters: { shared: { name: 'body', in: 'body', schema: { $ref: '#/definitions/good' } } },
      paths: {
        '/V1/ok/{id}/': { get: { operationId: 'x' }, patch: { operationId: 'y' }, 'x-vendor': 1 },
        '/V1/body': {
          post: { parameters: [{ $ref: '#/parameters/shared' }, { $ref: '#/parameters/none' }, 5] },
          put: 'no',
        },
        '/V1/dangling': {
          post: { parameters: [{ in: 'body', schema: { $ref: '#/definitions/missing' } }] },
          delete: { responses: { 200: 'x' } },
        },
        'V1/no-slash': { get: {} },
        '/V1/{open': { get: {} },
        '/V1/number': 4,
      },
    })
    expect(read.operations.map((op) => endpointText(op))).toEqual([
      'GET /V1/ok/:id',
      'POST /V1/body',
      'POST /V1/dangling',
      'DELETE /V1/dangling',
    ])
    expect(find(read, 'POST', '/V1/body')).toMatchObject({ bodyKeys: ['a'], bodySchemaRef: '#/definitions/good' })
    expect(find(read, 'POST', '/V1/dangling')?.bodyKeys).toEqual([])
    expect(read.definitions).toEqual({ good: { type: 'object', properties: { a: { type: 'string' } } } })
    expect(read.problems).toEqual([
      'definition "bad" is not an object: left out',
      'PATCH /V1/ok/:id: a method the spec does not use: left out',
      'POST /V1/body: a parameter that is not an object (or a $ref to none) was left out',
      'POST /V1/body: a parameter that is not an object (or a $ref to none) was left out',
      'PUT /V1/body: not an object: left out',
      'path "V1/no-slash": not a path template: left out',
      'path "/V1/{open": not a path template: left out',
      'path "/V1/number": not an object: left out',
    ])
  })

  it('never throws, whatever part of a real-shaped document is broken', () => {
    const doc = handmadeDocument('admin')
    // Every place of the document down to the fields of the definitions, each replaced in turn by odd values.
    const places: [any, string][] = []
    const collect = (node: any, depth: number): void => {
      if (node === null || typeof node !== 'object' || depth > 7) return
      for (const key of Object.keys(node)) {
        places.push([node, key])
        collect(node[key], depth + 1)
      }
    }
    collect(doc, 0)
    const sample = places.filter((_, i) => i % 7 === 0)
    expect(sample.length).toBeGreaterThan(200)
    for (const [parent, key] of sample) {
      const kept = parent[key]
      for (const odd of [null, 0, 'x', [], {}, { $ref: '#/definitions/none' }]) {
        parent[key] = odd
        const read = readDocument(doc, 'admin')
        if (!read.ok) expect(read.reason).not.toContain('\n')
      }
      parent[key] = kept
    }
  })
})

describe('paths', () => {
  it("are read in the suite's form and compared by shape, whatever the parameters are called", () => {
    expect(suitePath('/V1/carts/{cartId}/items/{itemId}')).toBe('/V1/carts/:cartId/items/:itemId')
    expect(suitePath('/V1/inventory/in-store-pickup/pickup-locations/')).toBe(
      '/V1/inventory/in-store-pickup/pickup-locations',
    )
    expect(suitePath('/V1/x?y')).toBeUndefined()
    expect(operationKey('get', '/V1/carts/:cartId')).toBe(operationKey('GET', '/V1/carts/{quoteId}'))
    expect(operationKey('GET', '/V1/carts/mine')).not.toBe(operationKey('GET', '/V1/carts/:cartId'))
  })
})
