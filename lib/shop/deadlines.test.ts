/**
 * Deadlines that follow what the shop has shown (issue 29.3), without a target: each kind of call gets at least
 * `--timeout-ms`, else a multiple of its slowest answer so far, at most `--max-timeout-ms`. The client applying them
 * to exchanges (a deadline that grows while a call waits): client.test.ts.
 */
import { describe, expect, it } from 'vitest'
import { callKind, Deadlines, DEADLINE_FACTOR } from './deadlines.ts'
import { deadlinesText, longestDeadlines } from '../results/deadlines.ts'

describe('callKind', () => {
  it('tells reads, writes and the heavy writes apart (the heavy writes of a real shop: orders, sales documents, product saves, registrations)', () => {
    const heavy = [
      'PUT /V1/guest-carts/abc/order',
      'PUT /V1/carts/mine/order',
      'PUT /V1/carts/12/order',
      'POST /V1/carts/mine/payment-information',
      'POST /V1/guest-carts/abc/payment-information',
      'POST /V1/order/5/invoice',
      'POST /V1/order/5/ship',
      'POST /V1/order/5/refund',
      'POST /V1/invoice/3/refund',
      'POST /V1/creditmemo',
      'POST /V1/products',
      'PUT /V1/products/sku-1',
      'POST /V1/customers',
    ]
    for (const call of heavy) expect(callKind(...(call.split(' ') as [string, string])), call).toBe('heavy write')
    for (const call of [
      'POST /V1/carts/mine/items',
      'PUT /V1/customers/5',
      'POST /V1/products/sku-1/media',
      'DELETE /V1/products/sku-1',
      'POST /V1/integration/admin/token',
      'GET /V1/carts/mine/payment-information',
    ]) {
      expect(callKind(...(call.split(' ') as [string, string])), call).toBe(call.startsWith('GET') ? 'read' : 'write')
    }
    expect(callKind('GET', '/V1/orders/5')).toBe('read')
  })
})

describe('Deadlines', () => {
  it('gives each kind --timeout-ms until it has shown a slower answer, then a multiple of its slowest, up to the ceiling', () => {
    const d = new Deadlines(10_000, 120_000)
    expect([d.of('read'), d.of('write'), d.of('heavy write')]).toEqual([10_000, 10_000, 10_000])
    // Answers within a third of the floor change nothing.
    d.observe('read', 3_000)
    expect(d.of('read')).toBe(10_000)
    // A guest order placed in 14 s: the heavy writes get three times that; the other kinds keep theirs.
    d.observe('heavy write', 14_000)
    expect(d.of('heavy write')).toBe(DEADLINE_FACTOR * 14_000)
    expect([d.of('read'), d.of('write')]).toEqual([10_000, 10_000])
    // A faster answer lowers nothing: the slowest so far decides.
    d.observe('heavy write', 2_000)
    expect(d.of('heavy write')).toBe(42_000)
    // A timeout counts as the deadline it reached: the kind gets three times that, at most the ceiling.
    d.observe('write', 10_000)
    expect(d.of('write')).toBe(30_000)
    d.observe('write', 30_000)
    d.observe('write', 90_000)
    expect(d.of('write')).toBe(120_000)
    expect(d.used).toEqual({ read: 10_000, write: 120_000, heavyWrite: 42_000 })
  })

  it('keeps every deadline at --timeout-ms when the ceiling is that (or below it), and starts from what an earlier client saw', () => {
    const fixed = new Deadlines(10_000, 5_000)
    fixed.observe('heavy write', 60_000)
    expect([fixed.ceilingMs, fixed.of('heavy write')]).toEqual([10_000, 10_000])
    const later = new Deadlines(10_000, 120_000, { 'heavy write': 15_000, read: Number.NaN })
    expect([later.of('heavy write'), later.of('read')]).toEqual([45_000, 10_000])
    expect(later.slowest).toEqual({ 'heavy write': 15_000 })
  })

  it('reports the longest of two parts, in words', () => {
    const used = longestDeadlines(
      { read: 10_000, write: 12_500, heavyWrite: 10_000 },
      { read: 10_000, write: 10_000, heavyWrite: 45_000 },
    )
    expect(deadlinesText(used)).toBe('reads 10 s, writes 12.5 s, heavy writes 45 s')
  })
})
