/**
 * One cart's writes go one at a time, however the cart is addressed (issue 29.2: a real shop deadlocked on
 * `quote_address` with nine of the run's writes in flight on one cart). Without a target: which cart a request names,
 * which names an answer shows to be one cart, and the turns of a group. The client keeping them against a server:
 * client.test.ts.
 */
import { describe, expect, it } from 'vitest'
import type { Answer } from './request.ts'
import { cartAliases, cartNamed, cartWritten, SerialGroups } from './serial.ts'

const ok = (body: unknown): Answer => ({ status: 200, headers: {}, body, json: true, text: JSON.stringify(body) })

describe('the cart a request names', () => {
  it("is the customer's by its token, a guest's by its masked id, any by its id; none for a read, a list or a new guest cart", () => {
    expect(cartWritten({ method: 'PUT', path: '/V1/carts/mine/items/3', token: 'tok-a' })).toBe('mine tok-a')
    expect(cartWritten({ method: 'POST', path: '/V1/carts/mine', token: 'tok-a' })).toBe('mine tok-a')
    expect(cartWritten({ method: 'POST', path: '/V1/carts/mine/coupons/X' })).toBe('mine none')
    expect(cartWritten({ method: 'PUT', path: '/V1/guest-carts/m4sk/order' })).toBe('guest m4sk')
    expect(cartWritten({ method: 'DELETE', path: '/V1/carts/12/coupons', token: 'admin' })).toBe('cart 12')
    expect(cartWritten({ method: 'POST', path: '/V1/carts/12/items', token: 'admin' })).toBe('cart 12')
    expect(cartWritten({ method: 'GET', path: '/V1/carts/12', token: 'admin' })).toBeUndefined()
    for (const path of [
      '/V1/guest-carts',
      '/V1/carts',
      '/V1/carts/search',
      '/V1/carts/licence',
      '/V1/products/sku-1',
      '/V1/customers/5/carts',
    ]) {
      expect(cartWritten({ method: 'POST', path }), path).toBeUndefined()
    }
    expect(cartNamed('/V1/guest-carts/m4sk', undefined)).toBe('guest m4sk')
  })

  it("is none for the probes' placeholder masked id (no shop hands it out); a placeholder cart id is a cart all the same", () => {
    expect(cartWritten({ method: 'PUT', path: '/V1/guest-carts/999999/items/999999' })).toBeUndefined()
    expect(
      cartWritten({ method: 'POST', path: '/V1/guest-carts/999999/payment-information', token: 'admin' }),
    ).toBeUndefined()
    expect(cartWritten({ method: 'POST', path: '/V1/guest-carts/9999990/items' })).toBe('guest 9999990')
    expect(cartWritten({ method: 'DELETE', path: '/V1/carts/999999/coupons', token: 'admin' })).toBe('cart 999999')
  })

  it('is one cart under every name an answer shows: a cart read or made, an item added or changed', () => {
    const mine = { method: 'GET', path: '/V1/carts/mine', token: 'tok-a' }
    expect(cartAliases(mine, ok({ id: 12, items: [] }))).toEqual([['mine tok-a', 'cart 12']])
    expect(cartAliases({ method: 'POST', path: '/V1/carts/mine', token: 'tok-a' }, ok(12))).toEqual([
      ['mine tok-a', 'cart 12'],
    ])
    expect(
      cartAliases({ method: 'POST', path: '/V1/carts/mine/items', token: 'tok-a' }, ok({ item_id: 3, quote_id: '12' })),
    ).toEqual([['mine tok-a', 'cart 12']])
    expect(cartAliases({ method: 'GET', path: '/V1/guest-carts/m4sk' }, ok({ id: 13 }))).toEqual([
      ['guest m4sk', 'cart 13'],
    ])
    expect(
      cartAliases({ method: 'POST', path: '/V1/guest-carts/m4sk/items' }, ok({ item_id: 4, quote_id: 13 })),
    ).toEqual([['guest m4sk', 'cart 13']])
    // Nothing from a refusal, a masked quote id, an address id, a cart addressed by its id, or another path.
    expect(cartAliases(mine, { ...ok({ id: 12 }), status: 404 })).toEqual([])
    expect(
      cartAliases({ method: 'POST', path: '/V1/guest-carts/m4sk/items' }, ok({ item_id: 4, quote_id: 'm4sk' })),
    ).toEqual([])
    expect(cartAliases({ method: 'POST', path: '/V1/carts/mine/billing-address', token: 'tok-a' }, ok(77))).toEqual([])
    expect(cartAliases({ method: 'GET', path: '/V1/carts/12', token: 'admin' }, ok({ id: 12 }))).toEqual([])
    expect(cartAliases({ method: 'GET', path: '/V1/customers/me', token: 'tok-a' }, ok({ id: 5 }))).toEqual([])
  })
})

describe('SerialGroups', () => {
  it("runs a group's work one at a time in the order asked, other groups beside it; aliases share one turn from then on", async () => {
    const groups = new SerialGroups()
    const log: string[] = []
    const gates = new Map<string, () => void>()
    const work = (name: string) => () => {
      log.push(`start ${name}`)
      return new Promise<string>((r) =>
        gates.set(name, () => {
          log.push(`end ${name}`)
          r(name)
        }),
      )
    }
    const tick = () => new Promise((r) => setTimeout(r, 0))
    const a1 = groups.run('mine tok', work('a1'))
    const a2 = groups.run('mine tok', work('a2'))
    const b1 = groups.run('cart 12', work('b1'))
    await tick()
    expect(log).toEqual(['start a1', 'start b1'])
    // The customer's cart is cart 12: what comes next under either name waits for both a2 and b1.
    groups.alias('mine tok', 'cart 12')
    const c1 = groups.run('cart 12', work('c1'))
    gates.get('a1')!()
    await tick()
    expect(log).toEqual(['start a1', 'start b1', 'end a1', 'start a2'])
    gates.get('a2')!()
    await tick()
    expect(log.at(-1)).toBe('end a2')
    gates.get('b1')!()
    await tick()
    expect(log.slice(-2)).toEqual(['end b1', 'start c1'])
    gates.get('c1')!()
    expect(await Promise.all([a1, a2, b1, c1])).toEqual(['a1', 'a2', 'b1', 'c1'])
  })

  it('gives the turn up however the work ends', async () => {
    const groups = new SerialGroups()
    await expect(groups.run('g', () => Promise.reject(new Error('broke')))).rejects.toThrow('broke')
    expect(await groups.run('g', () => Promise.resolve('next'))).toBe('next')
  })
})
