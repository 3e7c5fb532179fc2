/**
 * The bench's replay planned from a request log: order, tokens, placeholders. Sending it (a server):
 * replay-send.test.ts.
 */
import { describe, expect, test } from 'vitest'
import { planReplay, sameStatusShare, substitute } from './replay.ts'
import { creds, line } from './testing.ts'

describe('planReplay', () => {
  test('in start order, tokens by label, placeholders back to values, base path and query kept', () => {
    const plan = planReplay(
      [
        line({ startMs: 5, caller: 'customer', path: '/V1/carts/mine', query: 'a=1' }),
        line({
          startMs: 1,
          method: 'POST',
          path: '/V1/integration/admin/token',
          body: { username: 'admin', password: '[password admin]' },
        }),
        line({
          startMs: 3,
          method: 'PUT',
          caller: 'admin',
          store: 'all',
          body: { password: '[password 2]', token: '[token disposable]', sku: 'sc-1' },
        }),
        line({ startMs: 4, caller: 'malformed' }),
      ],
      '/shop/',
      creds,
    )
    expect(plan.map((p) => [p.method, p.path, p.headers.authorization])).toEqual([
      ['POST', '/shop/rest/default/V1/integration/admin/token', undefined],
      ['PUT', '/shop/rest/all/V1/x', 'Bearer A-TOKEN'],
      ['GET', '/shop/rest/default/V1/x', 'Bearer shop-conformance-malformed-ff'],
      ['GET', '/shop/rest/default/V1/carts/mine?a=1', 'Bearer C-TOKEN'],
    ])
    expect(JSON.parse(plan[0]!.body!)).toEqual({ username: 'admin', password: 'Admin-Pw-1!' })
    expect(JSON.parse(plan[1]!.body!)).toEqual({ password: 'Bench-2-n0nceaA1!', token: 'D-TOKEN', sku: 'sc-1' })
    expect(plan[1]!.headers['content-type']).toBe('application/json')
    expect(plan[2]!.body).toBeUndefined()
  })

  test('other tokens: the token request issues one, its users wait for it (keyed by thread)', () => {
    const plan = planReplay(
      [
        line({ method: 'POST', path: '/V1/integration/customer/token', issuesOtherToken: 1, startMs: 1 }),
        line({ caller: 'other', otherToken: 1, startMs: 2 }),
      ],
      '/',
      creds,
    )
    expect(plan[0]!.issuesOther).toBe('worker:1')
    expect(plan[1]!.awaitsOther).toBe('worker:1')
    expect(plan[1]!.headers.authorization).toBeUndefined()
  })

  test('sameStatusShare compares in start order', () => {
    const log = [line({ startMs: 2, status: 404 }), line({ startMs: 1, status: 200 }), line({ startMs: 3 })]
    expect(sameStatusShare(log, [200, 400, undefined])).toBeCloseTo(1 / 3)
    expect(sameStatusShare(log, [200, 404, 200])).toBeCloseTo(2 / 3)
  })

  test('substitute leaves ordinary strings alone', () => {
    expect(substitute({ a: ['[password 1]', 'x', 3, null] }, creds)).toEqual({ a: ['Bench-1-n0nceaA1!', 'x', 3, null] })
  })
})
