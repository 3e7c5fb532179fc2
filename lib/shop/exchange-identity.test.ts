/**
 * What an exchange is (exchange-identity.ts): where below `/rest/{store}`, which endpoint, which caller's class — the
 * one reading the run's evidence, its server errors and the recorded runs share.
 */
import { describe, expect, it } from 'vitest'
import { MALFORMED_TOKEN_PREFIX } from '../results/redactor.ts'
import { endpointMatcher, identify, recordedCaller, restPathOf } from './exchange-identity.ts'

describe('restPathOf', () => {
  it('reads the store code, path and query below the base given, also one with a path of its own', () => {
    expect(restPathOf('https://shop.example/magento/rest/default/V1/carts/mine?x=1&y=2', 'https://shop.example/magento/')).toEqual({ store: 'default', path: '/V1/carts/mine', query: 'x=1&y=2' })
    expect(restPathOf('https://shop.example/rest/all/V1/products', 'https://shop.example')).toEqual({ store: 'all', path: '/V1/products' })
    // Not below the base given: another shop's, or another prefix.
    expect(restPathOf('https://other.example/rest/default/V1/products', 'https://shop.example')).toBeUndefined()
    expect(restPathOf('https://shop.example/rest/default/V1/products', 'https://shop.example/magento')).toBeUndefined()
  })

  it('infers the base without one: the first /rest/ of the path', () => {
    expect(restPathOf('http://127.0.0.1:4000/shop/rest/second/V1/orders/12?searchCriteria=1')).toEqual({ store: 'second', path: '/V1/orders/12', query: 'searchCriteria=1' })
    expect(restPathOf('http://127.0.0.1:4000/V1/orders')).toBeUndefined()
    expect(restPathOf('http://127.0.0.1:4000/rest/default')).toBeUndefined()
  })
})

describe('endpointMatcher', () => {
  const endpointOf = endpointMatcher([{ from: '/V1/stockmedia', to: '/V1/adobestock' }], [{ method: 'GET', path: '/V1/acme/widgets/:id' }])

  it('finds the catalog row a concrete path is of, the literal sibling first', () => {
    expect(endpointOf('GET', '/V1/customerGroups/7')).toEqual({ endpoint: 'GET /V1/customerGroups/:id', origin: 'spec' })
    expect(endpointOf('GET', '/V1/customerGroups/default/1')).toEqual({ endpoint: 'GET /V1/customerGroups/default/:storeId', origin: 'spec' })
    expect(endpointOf('PUT', '/V1/customerGroups/7')).toEqual({ endpoint: 'PUT /V1/customerGroups/:id', origin: 'spec' })
  })

  it('through the path aliases, then among the shop\'s extension operations; else none', () => {
    expect(endpointOf('GET', '/V1/adobestock/asset/list')).toEqual({ endpoint: 'GET /V1/stockmedia/asset/list', origin: 'spec' })
    expect(endpointOf('GET', '/V1/stockmedia/asset/list')).toBeUndefined()
    expect(endpointOf('GET', '/V1/acme/widgets/3')).toEqual({ endpoint: 'GET /V1/acme/widgets/:id', origin: 'extension' })
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
    const sent = request('http://t/rest/default/V1/customers/me', { Authorization: 'Bearer [redacted other customer token]' })
    expect(identify(sent, { endpointOf })).toEqual({ store: 'default', path: '/V1/customers/me', endpoint: 'GET /V1/customers/me', origin: 'spec', caller: 'other customer' })
    expect(identify(sent, { endpointOf, caller: 'customer', base: 'http://t' })).toMatchObject({ caller: 'customer', endpoint: 'GET /V1/customers/me' })
  })

  it('keeps what it can of a request outside the interface: no store, no endpoint', () => {
    expect(identify(request('http://t/health'), { endpointOf })).toEqual({ caller: 'none' })
    expect(identify(request('http://t/rest/default/V1/nothing/here'), { endpointOf })).toEqual({ store: 'default', path: '/V1/nothing/here', caller: 'none' })
  })
})
