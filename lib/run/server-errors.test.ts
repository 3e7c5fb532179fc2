/**
 * The run's list of server errors completed for its report, from its facts alone: the endpoint of each path (a catalog
 * row through the path aliases, an extension operation of the shop's, neither), the results whose exchanges include
 * the request, and what the shop's schema says of its body. Nothing is read of the results when nothing was listed.
 */
import { describe, expect, it } from 'vitest'
import type { Result } from '../results/result.ts'
import type { ServerErrorEntry, ServerErrorList } from '../results/server-errors.ts'
import { schemaFacts } from '../schema/block.ts'
import { readOk } from '../schema/testing.ts'
import { completedServerErrors } from './server-errors.ts'

const BASE = 'http://shop.test/shop'
const SELECTION = '/V1/inventory/source-selection-algorithm-result'
const SENT = { inventoryRequest: { stock_id: 1, items: [{ sku: 'sc-1', qty: 1 }] }, algorithmCode: 'priority' }

function entry(patch: Partial<ServerErrorEntry>): ServerErrorEntry {
  return {
    method: 'POST',
    path: SELECTION,
    store: 'default',
    caller: 'admin',
    status: 500,
    message: 'Internal Error.',
    firstAt: '2026-01-01T00:00:01.000Z',
    lastAt: '2026-01-01T00:00:01.000Z',
    count: 1,
    steps: [],
    ...patch,
  }
}

function resultWith(id: string, exchanges: { method: string; url: string; body?: unknown; status: number }[]): Result {
  return {
    id,
    module: 'inventory-other',
    endpoint: { method: 'POST', path: SELECTION },
    check: 'route',
    status: 'failed',
    message: '',
    durationMs: 1,
    spec: [],
    exchanges: exchanges.map(({ method, url, body, status }) => ({
      request: { method, url, headers: {}, ...(body !== undefined ? { body } : {}) },
      response: { status, headers: {}, body: {} },
      durationMs: 1,
    })),
  }
}

/** The shop's schema: the source selection with its documented body, and one extension operation. */
const SCHEMA = schemaFacts({
  status: 'read',
  source: 'a file',
  notes: [],
  schema: readOk({
    swagger: '2.0',
    paths: {
      [SELECTION]: {
        post: {
          parameters: [
            {
              name: 'b',
              in: 'body',
              schema: {
                type: 'object',
                properties: { inventoryRequest: { type: 'object' }, algorithmCode: { type: 'string' } },
              },
            },
          ],
        },
      },
      '/V1/acme/{code}/sync': { post: { parameters: [] } },
    },
  }),
})

const list = (...entries: ServerErrorEntry[]): ServerErrorList => ({ entries, unlisted: {} })
const facts = { baseUrl: BASE, pathAliases: [], results: [] as Result[], schema: SCHEMA }

describe('the server errors of a run, completed for its report', () => {
  it("names the endpoint a path is of: a catalog row (through the path aliases), the shop's extension operation, else none", () => {
    const block = completedServerErrors(
      list(
        entry({ body: SENT }),
        entry({ method: 'GET', path: '/V2/shop/products/sc-1', body: undefined }),
        entry({ path: '/V1/acme/eu/sync', body: undefined }),
        entry({
          method: 'GET',
          path: '/schema',
          query: 'services=all',
          body: undefined,
          steps: ["reading the shop's schema"],
        }),
      ),
      { ...facts, pathAliases: [{ from: '/V1/products', to: '/V2/shop/products' }] },
    )
    expect(block.entries.map((e) => [e.endpoint, e.origin])).toEqual([
      [undefined, undefined],
      ['GET /V1/products/:sku', 'spec'],
      ['POST /V1/acme/:code/sync', 'extension'],
      [`POST ${SELECTION}`, 'spec'],
    ])
    expect(block).toMatchObject({ answers: 4, operations: 4, statuses: { 500: 4 } })
  })

  it('names the results whose exchanges include the same request answered the same status', () => {
    const url = `${BASE}/rest/default${SELECTION}`
    const results = [
      resultWith('POST … › route', [{ method: 'POST', url, body: SENT, status: 500 }]),
      resultWith('POST … › access', [
        { method: 'POST', url, body: SENT, status: 200 },
        { method: 'POST', url, body: SENT, status: 500 },
      ]),
      // Another body, another store, another status: not this request.
      resultWith('POST … › body-keys', [
        { method: 'POST', url, body: {}, status: 500 },
        { method: 'POST', url: `${BASE}/rest/all${SELECTION}`, body: SENT, status: 500 },
        { method: 'POST', url, body: SENT, status: 503 },
      ]),
    ]
    const [listed] = completedServerErrors(list(entry({ body: SENT })), { ...facts, results }).entries
    expect(listed!.results).toEqual(['POST … › route', 'POST … › access'])
    expect(listed!.moreResults).toBeUndefined()
    const many = Array.from({ length: 25 }, (_, i) =>
      resultWith(`r${i}`, [{ method: 'POST', url, body: SENT, status: 500 }]),
    )
    const [capped] = completedServerErrors(list(entry({ body: SENT })), { ...facts, results: many }).entries
    expect(capped).toMatchObject({ results: { length: 20 }, moreResults: 5 })
  })

  it("says what the shop's schema says of the body sent: documented, not, or not read", () => {
    const [documented] = completedServerErrors(list(entry({ body: SENT })), facts).entries
    expect(documented).toMatchObject({
      bodyKeys: [
        'inventoryRequest.stock_id',
        'inventoryRequest.items[].sku',
        'inventoryRequest.items[].qty',
        'algorithmCode',
      ],
      schemaDocumentsBody: true,
    })
    const [camel] = completedServerErrors(
      list(entry({ body: { inventoryRequest: {}, algorithm: 'priority' } })),
      facts,
    ).entries
    expect(camel).toMatchObject({
      schemaDocumentsBody: false,
      schemaSays: expect.stringContaining('does not declare algorithm'),
    })
    const [unread] = completedServerErrors(list(entry({ body: SENT })), { ...facts, schema: undefined }).entries
    expect(unread).toMatchObject({ bodyKeys: expect.any(Array), schemaSays: "the shop's schema was not read (off)" })
    expect(unread!.schemaDocumentsBody).toBeUndefined()
    const [none] = completedServerErrors(list(entry({ method: 'GET' })), facts).entries
    expect(Object.keys(none!)).not.toContain('schemaSays')
    const [long] = completedServerErrors(list(entry({ bodyChars: 20_000 })), facts).entries
    expect(long).toMatchObject({ schemaSays: expect.stringMatching(/too long to keep/) })
  })

  it('reads no result when nothing was listed: a clean run pays nothing for the list', () => {
    const untouchable: Iterable<Result> = {
      [Symbol.iterator]() {
        throw new Error('the results were read')
      },
    }
    expect(completedServerErrors(list(), { ...facts, results: untouchable })).toEqual({
      entries: [],
      unlisted: {},
      answers: 0,
      statuses: {},
      operations: 0,
      text: 'Server errors: none (no request of the run was answered 5xx).',
    })
  })
})
