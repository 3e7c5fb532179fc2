/**
 * The collection of server errors, on requests published as a client publishes each finished one (request-channel.ts),
 * no target: only 5xx answers are kept, each request once with its count, bounded, as recorded (redacted), with the
 * caller's class and never its token; and the lists joined as the worker's reach the run and the shards a merge.
 */
import diagnostics_channel from 'node:diagnostics_channel'
import { afterEach, describe, expect, it } from 'vitest'
import type { Outcome, RequestSpec } from './request.ts'
import { REQUEST_CHANNEL, type FinishedRequest } from './request-channel.ts'
import { Secrets } from './secrets.ts'
import { ServerErrorLog } from './server-errors.ts'
import { callerClass, seedCaller } from './exchange-identity.ts'
import { joinLists, MAX_LISTED, serverErrorsBlock, type ServerErrorList } from '../results/server-errors.ts'
import type { CallerClass } from '../results/exchange.ts'
import { MALFORMED_TOKEN_PREFIX } from '../results/redactor.ts'

const BASE = 'http://shop.test/prefix'
const ADMIN = 'admin-token-0123456789'
const PASSWORD = 'Secret-Password-77!'
const secrets = new Secrets()
secrets.add(ADMIN, 'admin token')
secrets.add(PASSWORD, 'customer password')

/** What a client publishes for `spec` answered `status` with `body`: the exchange redacted as the client records it. */
function finished(
  spec: RequestSpec,
  status: number,
  body: unknown = {
    message: 'Internal Error. Details are available in Shop log file. Report ID: webapi-6b0bb8931408b',
  },
): FinishedRequest {
  const url = `${BASE}/rest/${spec.store}${spec.path}${spec.query !== undefined ? `?${spec.query}` : ''}`
  const headers: Record<string, string> = spec.token !== undefined ? { authorization: `Bearer ${spec.token}` } : {}
  const text = typeof body === 'string' ? body : JSON.stringify(body)
  const outcome: Outcome = {
    answer: { status, headers: {}, body, json: typeof body !== 'string', text },
    exchange: secrets.redact({
      request: { method: spec.method, url, headers, ...(spec.body !== undefined ? { body: spec.body } : {}) },
      response: { status, headers: {}, body },
      durationMs: 3,
    }),
  }
  return { spec, outcome, startMs: 0, endMs: 3 }
}

const publish = (f: FinishedRequest) => diagnostics_channel.channel(REQUEST_CHANNEL).publish(f)
const SELECTION: RequestSpec = {
  method: 'POST',
  path: '/V1/inventory/source-selection-algorithm-result',
  store: 'default',
  token: ADMIN,
  body: { inventoryRequest: { stock_id: 1 }, algorithmCode: 'priority' },
}
const byToken = (t: string | undefined, authorization: string | undefined): CallerClass =>
  callerClass(t, authorization, (x) => (x === ADMIN ? 'admin' : undefined))
const OTHER = 'a-token-of-the-run-s-other-customer'
secrets.add(OTHER, 'other customer token')

const logs: ServerErrorLog[] = []
function log(options: Partial<ConstructorParameters<typeof ServerErrorLog>[0]> = {}): ServerErrorLog {
  const made = new ServerErrorLog({ callerOf: byToken, ...options })
  logs.push(made)
  return made
}
afterEach(() => {
  for (const l of logs.splice(0)) l.close()
})

describe("the server errors a thread's requests met", () => {
  it("keeps every 5xx answer and nothing else, each request once with how many times, the shop's message and report id", () => {
    const l = log()
    publish(finished(SELECTION, 500))
    publish(
      finished({ ...SELECTION, path: '/V1/inventory/sources', method: 'GET', body: undefined }, 200, { items: [] }),
    )
    publish(finished({ method: 'GET', path: '/V1/x', store: 'default' }, 404, { message: 'no' }))
    publish(finished({ method: 'GET', path: '/V1/x', store: 'default' }, 429, { message: 'slow down' }))
    publish(
      finished(SELECTION, 500, {
        message: 'Missing required argument $%1 of %2.',
        parameters: ['stockId', 'InventoryRequest'],
      }),
    )
    publish(finished({ method: 'GET', path: '/V1/y', store: 'all', query: 'a=1' }, 503, 'Service Unavailable'))
    const { entries, unlisted } = l.list()
    expect(unlisted).toEqual({})
    expect(entries).toHaveLength(2)
    expect(entries[0]).toMatchObject({
      method: 'POST',
      path: '/V1/inventory/source-selection-algorithm-result',
      store: 'default',
      caller: 'admin',
      body: SELECTION.body,
      status: 500,
      message: 'Internal Error. Details are available in Shop log file. Report ID: webapi-6b0bb8931408b',
      reportId: 'webapi-6b0bb8931408b',
      count: 2,
      steps: [],
    })
    expect(entries[0]!.lastAt >= entries[0]!.firstAt).toBe(true)
    expect(entries[1]).toMatchObject({
      method: 'GET',
      path: '/V1/y',
      query: 'a=1',
      store: 'all',
      caller: 'none',
      status: 503,
      message: 'Service Unavailable',
      count: 1,
    })
    expect(entries[1]!.reportId).toBeUndefined()
  })

  it('keeps what the client recorded, redacted: no token, no password, the caller as a class', () => {
    const l = log()
    const registration: RequestSpec = {
      method: 'POST',
      path: '/V1/customers',
      store: 'default',
      body: { customer: { email: 'a@example.com' }, password: PASSWORD },
    }
    publish(finished(registration, 500, { message: `could not save ${PASSWORD}` }))
    publish(finished({ ...SELECTION, token: OTHER }, 500))
    publish(finished({ ...SELECTION, token: 'a-token-the-run-never-labelled' }, 500))
    publish(finished({ ...SELECTION, token: `${MALFORMED_TOKEN_PREFIX}00ff` }, 500))
    const text = JSON.stringify(l.list())
    expect(text).not.toContain(PASSWORD)
    expect(text).not.toContain(ADMIN)
    expect(text).not.toContain(OTHER)
    expect(text).not.toContain('a-token-the-run-never-labelled')
    expect(l.list().entries.map((e) => e.caller)).toEqual(['none', 'other customer', 'customer', 'malformed'])
    expect(l.list().entries[0]).toMatchObject({
      body: { customer: { email: 'a@example.com' }, password: '[redacted]' },
      message: 'could not save [redacted customer password]',
    })
  })

  it("names the caller's class from the run's own tokens, else from the token's label", () => {
    const seed = {
      tokens: { admin: 'a1', limitedAdmin: 'l1', customer: 'c1', disposableCustomer: 'd1', ownCustomer: 'o1' },
      malformedToken: 'm1',
    }
    expect(['a1', 'l1', 'c1', 'd1', 'o1', 'm1', 'x1'].map((t) => seedCaller(seed, t))).toEqual([
      'admin',
      'limited admin',
      'customer',
      'customer',
      'customer',
      'malformed',
      undefined,
    ])
    const unknown = () => undefined
    expect(callerClass(undefined, undefined, unknown)).toBe('none')
    expect(callerClass('t', 'Bearer [redacted limited admin token given as SHOP_LIMITED_ADMIN_TOKEN]', unknown)).toBe(
      'limited admin',
    )
    expect(callerClass('t', 'Bearer [redacted admin token]', unknown)).toBe('admin')
    expect(callerClass('t', 'Bearer [redacted other customer token]', unknown)).toBe('other customer')
    expect(callerClass('t', 'Bearer [redacted fresh customer token]', unknown)).toBe('customer')
    expect(callerClass('t', 'Bearer [redacted]', unknown)).toBe('customer')
    expect(callerClass('a1', 'Bearer [redacted customer token]', (t) => seedCaller(seed, t))).toBe('admin')
  })

  it('names the set-up step a request was made for, or where the run was', () => {
    let phase: string | undefined = 'preflight'
    const l = log({ during: () => phase })
    publish(finished({ ...SELECTION, step: 'create product main' }, 500))
    publish(finished({ method: 'GET', path: '/V1/store/storeViews', store: 'default', token: ADMIN }, 500))
    phase = undefined
    publish(finished({ method: 'GET', path: '/V1/modules', store: 'default', token: ADMIN }, 502, ''))
    expect(l.list().entries.map((e) => e.steps)).toEqual([['create product main'], ['preflight'], []])
  })

  it('is bounded: past its size, answers are counted by status, not kept; the same request still counts on its entry', () => {
    const l = log({ max: 3 })
    for (let i = 0; i < 10; i++)
      publish(
        finished(
          { method: 'GET', path: `/V1/products/sku-${i}`, store: 'default', token: ADMIN },
          i % 2 === 0 ? 500 : 503,
        ),
      )
    publish(finished({ method: 'GET', path: '/V1/products/sku-0', store: 'default', token: ADMIN }, 500))
    const list = l.list()
    expect(list.entries.map((e) => [e.path, e.count])).toEqual([
      ['/V1/products/sku-0', 2],
      ['/V1/products/sku-1', 1],
      ['/V1/products/sku-2', 1],
    ])
    expect(list.unlisted).toEqual({ 500: 3, 503: 4 })
    expect(serverErrorsBlock(list)).toMatchObject({ answers: 11, statuses: { 500: 6, 503: 5 } })
    // A body too long to keep is counted by its length: the entry stays small.
    const big = log()
    publish(finished({ ...SELECTION, body: { text: 'x'.repeat(20_000) } }, 500))
    expect(big.list().entries[0]).toMatchObject({ bodyChars: 20_011 })
    expect(big.list().entries[0]!.body).toBeUndefined()
  })

  it("hands over what it collected since last asked (the worker's, with each finished test), and stops when closed", () => {
    const l = log()
    publish(finished(SELECTION, 500))
    expect(l.take().entries).toHaveLength(1)
    expect(l.take()).toEqual({ entries: [], unlisted: {} })
    l.close()
    publish(finished(SELECTION, 500))
    expect(l.list().entries).toEqual([])
  })

  it("joins lists as the run joins the worker's and a merge the shards': the same request once, counts and results added, bounded", () => {
    const main = log()
    const worker = log()
    publish(finished(SELECTION, 500))
    const carried = worker.take()
    main.take()
    main.add(carried)
    main.add(carried)
    expect(main.list().entries).toEqual([expect.objectContaining({ count: 2, caller: 'admin' })])
    const entry = carried.entries[0]!
    const shard = (results: string[], at: string): ServerErrorList => ({
      entries: [{ ...entry, results, firstAt: at, lastAt: at }],
      unlisted: { 502: 1 },
    })
    const joined = joinLists([shard(['a'], '2026-01-01T00:00:02.000Z'), shard(['a', 'b'], '2026-01-01T00:00:01.000Z')])
    expect(joined).toEqual({
      entries: [
        {
          ...entry,
          results: ['a', 'b'],
          firstAt: '2026-01-01T00:00:01.000Z',
          lastAt: '2026-01-01T00:00:02.000Z',
          count: 2,
        },
      ],
      unlisted: { 502: 2 },
    })
    const many: ServerErrorList = {
      entries: Array.from({ length: MAX_LISTED + 5 }, (_, i) => ({ ...entry, path: `/V1/p/${i}` })),
      unlisted: {},
    }
    expect(joinLists([many])).toMatchObject({ entries: { length: MAX_LISTED }, unlisted: { 500: 5 } })
  })
})
