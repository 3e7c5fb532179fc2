import { describe, expect, it } from 'vitest'
import { extractSpecEndpoints, extractSpecEndpointsDetailed, extractSpecOccurrences } from './extract-spec-endpoints.ts'

const doc = (...lines: string[]) => ['# Title', '## Endpoints', '#### Group', ...lines].join('\n')

describe('extractSpecEndpoints', () => {
  it('reads one METHOD `path` (mark) line', () => {
    expect(extractSpecEndpoints(doc('- GET `/V1/directory/currency` (anon) — X::get'))).toEqual([
      { method: 'GET', path: '/V1/directory/currency', access: 'anon' },
    ])
  })

  it('strips a trailing slash and defaults to admin', () => {
    expect(extractSpecEndpoints(doc('- POST `/V1/carts/` — X::create (guest cart)'))).toEqual([
      { method: 'POST', path: '/V1/carts', access: 'admin' },
    ])
  })

  it('carries a method over a comma-separated list of paths, the mark before " — " applying to all', () => {
    expect(extractSpecEndpoints(doc('- GET `/V1/a`, `/V1/a/:x`, GET `/V1/b` (self) — X::a / b / c'))).toEqual([
      { method: 'GET', path: '/V1/a', access: 'self' },
      { method: 'GET', path: '/V1/a/:x', access: 'self' },
      { method: 'GET', path: '/V1/b', access: 'self' },
    ])
  })

  it('expands "POST and GET `a` and `b`"', () => {
    expect(extractSpecEndpoints(doc('- POST and GET `/V1/a` and `/V1/b` (anon) — same two contracts'))).toEqual([
      { method: 'POST', path: '/V1/a', access: 'anon' },
      { method: 'GET', path: '/V1/a', access: 'anon' },
      { method: 'POST', path: '/V1/b', access: 'anon' },
      { method: 'GET', path: '/V1/b', access: 'anon' },
    ])
  })

  it('switches method on "POST `a` and PUT `b`" and reads "(listed as self)"', () => {
    expect(extractSpecEndpoints(doc('- POST `/V1/a` and PUT `/V1/a` (listed as self) — X::save'))).toEqual([
      { method: 'POST', path: '/V1/a', access: 'self' },
      { method: 'PUT', path: '/V1/a', access: 'self' },
    ])
  })

  it('finds backticked `METHOD path` in prose and ignores methods not followed by a path', () => {
    const md = doc(
      '- Operations: cancel (`PUT /V1/creditmemo/:id`), place order (`PUT /V1/carts/:cartId/order`), refund.',
      '- Listing of all GET operations after the pickup-location path: not shown.',
      '- Every path begins with `/V1`.',
      '- POST `/V1/x` — see above; GET list is Y::getList.',
    )
    expect(extractSpecEndpoints(md)).toEqual([
      { method: 'PUT', path: '/V1/creditmemo/:id', access: 'admin' },
      { method: 'PUT', path: '/V1/carts/:cartId/order', access: 'admin' },
      { method: 'POST', path: '/V1/x', access: 'admin' },
    ])
  })

  it('reads a table with an Access column', () => {
    const md = doc(
      '| Method, path | Contract | Access |',
      '|---|---|---|',
      '| POST `/V1/creditmemo` | Sales: R::save | admin, ACL `Shop_Sales::x` |',
      '| POST `/V1/carts/mine/e` | Quote: S::e | self |',
    )
    expect(extractSpecEndpoints(md)).toEqual([
      { method: 'POST', path: '/V1/creditmemo', access: 'admin' },
      { method: 'POST', path: '/V1/carts/mine/e', access: 'self' },
    ])
  })

  it('lets an explicit mark win over unmarked mentions, records sections, and reports conflicts', () => {
    const md = [
      '## Endpoints',
      '### A',
      '- GET `/V1/a` — see below',
      '### B',
      '- GET `/V1/a` (anon) — X::a',
      '- GET `/V1/b` (self) — X::b',
      '## Other',
      'Tokens come from `GET /V1/b` and `GET /V1/a`, both anonymous.',
      '- GET `/V1/b` (anon) — X::b',
    ].join('\n')
    const { endpoints, conflicts } = extractSpecEndpointsDetailed(md)
    expect(endpoints.map(({ method, path, access, sections }) => ({ method, path, access, sections }))).toEqual([
      { method: 'GET', path: '/V1/a', access: 'anon', sections: ['Endpoints › A', 'Endpoints › B', 'Other'] },
      { method: 'GET', path: '/V1/b', access: 'self', sections: ['Endpoints › B', 'Other'] },
    ])
    expect(conflicts).toHaveLength(1)
    expect(conflicts[0]).toMatch(/^GET \/V1\/b: self \(line 6\) vs anon \(line 9\)$/)
  })

  it('refuses a line with two different marks before " — "', () => {
    expect(() => extractSpecOccurrences(doc('- GET `/V1/a` (anon) and `/V1/b` (self) — X'))).toThrow(
      /several access marks/,
    )
  })
})
