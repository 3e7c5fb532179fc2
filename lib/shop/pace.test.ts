/**
 * The run's pace on a slow shop (issue 21.5, 21.6): adaptive bound, heavy writes apart, a rate cap. The client
 * sending side-by-side deadlocking writes one at a time (a server): client.test.ts.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { Bound } from './bound.ts'
import { isHeavyWrite, Pace, RateCap, sideBySideGroup } from './pace.ts'

describe('Pace', () => {
  it('halves the requests in flight when answers slow down or time out, and gives one back when they are usual again', () => {
    const changes: number[] = []
    const pace = new Pace(8, (limit) => changes.push(limit))
    for (let i = 0; i < 20; i++) pace.observe(40)
    expect(pace.limit).toBe(8)
    for (let i = 0; i < 20; i++) pace.observe(2_000)
    expect(pace.limit).toBe(4)
    // Timeouts (each counted as the deadline it reached) in most of a window: slower still.
    for (let i = 0; i < 20; i++) pace.observe(i < 12 ? 10_000 : 40)
    expect(pace.limit).toBe(2)
    // One endpoint that hangs among usual answers is no slow shop.
    for (let i = 0; i < 20; i++) pace.observe(i < 3 ? 10_000 : 40)
    expect(pace.limit).toBe(3)
    expect(changes).toEqual([4, 2, 3])
    // A quarter of the bound may be heavy writes, at least one.
    expect([pace.heavy, new Pace(8).heavy, new Pace(1).heavy]).toEqual([1, 2, 1])
  })

  it('does not slow down for answers that are merely a little slower than usual (a busy test machine)', () => {
    const pace = new Pace(8)
    for (let i = 0; i < 20; i++) pace.observe(2)
    for (let i = 0; i < 20; i++) pace.observe(150)
    expect(pace.limit).toBe(8)
  })

  it('knows the heavy writes and the writes the platform deadlocks on side by side', () => {
    expect(isHeavyWrite('PUT', '/V1/carts/mine/order')).toBe(true)
    expect(isHeavyWrite('POST', '/V1/order/12/invoice')).toBe(true)
    expect(isHeavyWrite('POST', '/V1/invoice/3/refund')).toBe(true)
    expect(isHeavyWrite('POST', '/V1/products')).toBe(true)
    expect(isHeavyWrite('PUT', '/V1/products/sc-x')).toBe(true)
    expect(isHeavyWrite('GET', '/V1/orders/1')).toBe(false)
    expect(isHeavyWrite('POST', '/V1/products/base-prices')).toBe(false)
    expect(sideBySideGroup('POST', '/V1/eav/attribute-sets')).toBe('attribute sets')
    expect(sideBySideGroup('POST', '/V1/products/attribute-sets/groups')).toBe('attribute sets')
    expect(sideBySideGroup('GET', '/V1/eav/attribute-sets/list')).toBeUndefined()
  })
})

describe('Bound', () => {
  it('keeps heavy writes within their share and lets lighter requests past a waiting one', async () => {
    const bound = new Bound(() => ({ size: 3, heavy: 1 }))
    const log: string[] = []
    let release: (() => void)[] = []
    const work = (name: string) => () => new Promise<void>((r) => (log.push(name), release.push(r)))
    const all = [bound.run(work('heavy 1'), undefined, 'heavy'), bound.run(work('heavy 2'), undefined, 'heavy'), bound.run(work('light 1')), bound.run(work('light 2'))]
    await new Promise((r) => setImmediate(r))
    expect(log).toEqual(['heavy 1', 'light 1', 'light 2'])
    for (const r of release.splice(0)) r()
    await new Promise((r) => setImmediate(r))
    expect(log).toEqual(['heavy 1', 'light 1', 'light 2', 'heavy 2'])
    for (const r of release.splice(0)) r()
    await Promise.all(all)
  })
})

describe('RateCap', () => {
  afterEach(() => vi.useRealTimers())
  it('starts requests at least 1/N s apart, and none waits without a cap', async () => {
    vi.useFakeTimers({ now: 0 })
    const cap = new RateCap(10)
    const started: number[] = []
    const all = Array.from({ length: 3 }, () => cap.take().then(() => started.push(Date.now())))
    await vi.advanceTimersByTimeAsync(1_000)
    await Promise.all(all)
    expect(started).toEqual([0, 100, 200])
    await expect(new RateCap(undefined).take()).resolves.toBeUndefined()
  })
})
