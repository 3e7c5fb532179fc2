/**
 * What an exchange is (exchange-identity.ts): where below `/rest/{store}`, which endpoint, which caller's class — the
 * one reading the run's evidence, its server errors and the recorded runs share.
 */
import { describe, expect, it } from 'vitest'
import { MALFORMED_TOKEN_PREFIX } from '../results/redactor.ts'
import { endpointMatcher, identify, observedCallers, recordedCaller, restPathOf } from './exchange-identity.ts'

describe('restPathOf', () => {
  it('reads the store code, path and query below the base given, also one with a path of its own', () => {
    expect(
      restPathOf('https://shop.example/magento/rest/default/V1/carts/mine?x=1&y=2', 'https://shop.example/magento/'),
    ).toEqual({ store: 'default', path: '/V1/carts/mine', query: 'x=1&y=2' })
    expect(restPathOf('https://shop.example/rest/all/V1/products', 'https://shop.example')).toEqual({
      store: 'all',
      path: '/V1/products',
    })
    // Not below the base given: another shop's, or another prefix.
    expect(restPathOf('https://other.example/rest/default/V1/products', 'https://shop.example')).toBeUndefined()
    expect(restPathOf('https://shop.example/rest/default/V1/products', 'https://shop.example/magento')).toBeUndefined()
  })

  it('infers the base without one: the first /rest/ of the path', () => {
    expect(restPathOf('http://127.0.0.1:4000/shop/rest/second/V1/orders/12?searchCriteria=1')).toEqual({
      store: 'second',
      path: '/V1/orders/12',
      query: 'searchCriteria=1',
    })
    expect(restPathOf('http://127.0.0.1:4000/V1/orders')).toBeUndefined()
    expect(restPathOf('http://127.0.0.1:4000/rest/default')).toBeUndefined()
  })
})

describe('endpointMatcher', () => {
  const endpointOf = endpointMatcher(
    [{ from: '/V1/stockmedia', to: '/V1/adobestock' }],
    [{ method: 'GET', path: '/V1/acme/widgets/:id' }],
  )

  it('finds the catalog row a concrete path is of, the literal sibling first', () => {
    expect(endpointOf('GET', '/V1/customerGroups/7')).toEqual({
      endpoint: 'GET /V1/customerGroups/:id',
      origin: 'spec',
    })
    expect(endpointOf('GET', '/V1/customerGroups/default/1')).toEqual({
      endpoint: 'GET /V1/customerGroups/default/:storeId',
      origin: 'spec',
    })
    expect(endpointOf('PUT', '/V1/customerGroups/7')).toEqual({
      endpoint: 'PUT /V1/customerGroups/:id',
      origin: 'spec',
    })
  })

  it("through the path aliases, then among the shop's extension operations; else none", () => {
    expect(endpointOf('GET', '/V1/adobestock/asset/list')).toEqual({
      endpoint: 'GET /V1/stockmedia/asset/list',
      origin: 'spec',
    })
    expect(endpointOf('GET', '/V1/stockmedia/asset/list')).toBeUndefined()
    expect(endpointOf('GET', '/V1/acme/widgets/3')).toEqual({
      endpoint: 'GET /V1/acme/widgets/:id',
      origin: 'extension',
    })
    expect(endpointOf('DELETE', '/V1/acme/widgets/3')).toBeUndefined()
  })
})

describe('recordedCaller: the class of a caller by its redacted Authorization header', () => {
  it('names every class, never a token', () => {
    const cases: [string | undefined, string][] = [
      [undefined, 'none'],
      [`Bearer ${MALFORMED_TOKEN_PREFIX}0a1b2c`, 'malformed'],
      ['Bearer [redacted admin token]', 'admin'],
      ['Bearer [redacted admin token given as SHOP_ADMIN_TOKEN]', 'admin'],
      ['Bearer [redacted limited admin token]', 'limited admin'],
      ['Bearer [redacted other customer token]', 'other customer'],
      ['Bearer [redacted customer token]', 'customer'],
      ['Bearer [redacted fresh customer token]', 'customer'],
      ['[redacted]', 'customer'],
    ]
    expect(cases.map(([auth]) => recordedCaller(auth))).toEqual(cases.map(([, caller]) => caller))
  })
})

describe('identify', () => {
  const endpointOf = endpointMatcher()
  const request = (url: string, headers: Record<string, string> = {}) => ({ method: 'GET', url, headers })

  it('is where, which endpoint and who: the caller the sender knew first, else its header as recorded', () => {
    const sent = request('http://t/rest/default/V1/customers/me', {
      Authorization: 'Bearer [redacted other customer token]',
    })
    expect(identify(sent, { endpointOf })).toEqual({
      store: 'default',
      path: '/V1/customers/me',
      endpoint: 'GET /V1/customers/me',
      origin: 'spec',
      caller: 'other customer',
    })
    expect(identify(sent, { endpointOf, caller: 'customer', base: 'http://t' })).toMatchObject({
      caller: 'customer',
      endpoint: 'GET /V1/customers/me',
    })
  })

  it('keeps what it can of a request outside the interface: no store, no endpoint', () => {
    expect(identify(request('http://t/health'), { endpointOf })).toEqual({ caller: 'none' })
    expect(identify(request('http://t/rest/default/V1/nothing/here'), { endpointOf })).toEqual({
      store: 'default',
      path: '/V1/nothing/here',
      caller: 'none',
    })
  })
})

describe("endpointMatcher and the caller's own resource", () => {
  const endpointOf = endpointMatcher()

  it("never reads `mine` or `me` as a parameter: the platform routes them to the caller's own resource", () => {
    expect(endpointOf('GET', '/V1/carts/mine')).toBeUndefined()
    expect(endpointOf('POST', '/V1/carts/mine/items')).toBeUndefined()
    expect(endpointOf('GET', '/V1/carts/15')).toEqual({ endpoint: 'GET /V1/carts/:cartId', origin: 'spec' })
    expect(endpointOf('POST', '/V1/carts/mine/payment-information')).toEqual({
      endpoint: 'POST /V1/carts/mine/payment-information',
      origin: 'spec',
    })
  })
})

describe('observedCallers', () => {
  const x = (url: string, authorization?: string, response?: { status: number; body: unknown }) => {
    const headers: Record<string, string> = authorization !== undefined ? { Authorization: authorization } : {}
    return { request: { method: 'POST', url, headers }, ...(response !== undefined ? { response } : {}) }
  }

  it('follows the token calls of the capture, reads labels and hints, and leaves any other token unknown', () => {
    const capture = [
      x('https://s/rest/V1/integration/admin/token', undefined, { status: 200, body: 'tok-admin-1' }),
      x('https://s/rest/default/V1/integration/customer/token', undefined, { status: 200, body: 'tok-cust-1' }),
    ]
    const { callerOf, tokens } = observedCallers(capture, [{ prefix: 'int-', caller: 'admin' }])
    expect(callerOf(x('https://s/rest/default/V1/modules'))).toBe('none')
    const withCookie = x('https://s/rest/default/V1/carts/mine')
    expect(callerOf({ ...withCookie, request: { ...withCookie.request, headers: { Cookie: 'PHPSESSID=abc' } } })).toBe(
      'unknown',
    )
    expect(callerOf(x('https://s/rest/default/V1/modules', 'Bearer tok-admin-1'))).toBe('admin')
    expect(callerOf(x('https://s/rest/default/V1/modules', 'Bearer tok-cust-1'))).toBe('customer')
    expect(callerOf(x('https://s/rest/default/V1/modules', 'Bearer int-7'))).toBe('admin')
    expect(callerOf(x('https://s/rest/default/V1/modules', 'Bearer other-9'))).toBe('unknown')
    expect(callerOf(x('https://s/rest/default/V1/modules', 'Bearer [redacted customer token]'))).toBe('customer')
    expect(callerOf(x('https://s/rest/default/V1/modules', 'Bearer [redacted token]'))).toBe('unknown')
    expect(callerOf(x('https://s/rest/default/V1/modules', `Bearer ${MALFORMED_TOKEN_PREFIX}0a1b`))).toBe('malformed')
    expect(callerOf({ ...x('https://s/rest/default/V1/modules', 'Bearer other-9'), caller: 'limited admin' })).toBe(
      'limited admin',
    )
    expect(tokens).toEqual(
      new Map([
        ['tok-admin-1', 'admin'],
        ['tok-cust-1', 'customer'],
        ['int-7', 'admin'],
        ['other-9', 'unknown'],
      ]),
    )
  })

  it('reads /rest/V1/… as no store code, not the store code V1', () => {
    expect(restPathOf('https://s/rest/V1/integration/admin/token')).toEqual({
      store: '',
      path: '/V1/integration/admin/token',
    })
  })
})
