/**
 * The run's pace on a slow shop (issue 21.5, 21.6): adaptive bound, heavy writes apart, a rate cap. The client
 * sending side-by-side deadlocking writes one at a time (a server): client.test.ts.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { Bound } from './bound.ts'
import { isHeavyWrite, nextStartMs, Pace, RateCap, rateShare, sideBySideGroup } from './pace.ts'

/**
 * A shop as the pace sees it: each light answer's time given the requests in flight (the pace's limit), each heavy
 * write's given the heavy writes in flight. Samples go one window at a time, all started after the last change.
 */
function drive(
  pace: Pace,
  windows: number,
  light: (inFlight: number) => number,
  options: { heavy?: (inFlight: number) => number } = {},
): number[] {
  const heavyLevels: number[] = []
  let t = 0
  const tick = () => (t += 1) + performance.now()
  for (let w = 0; w < windows; w++) {
    for (let i = 0; i < 20; i++)
      pace.observe({ ms: light(pace.limit), heavy: false, inFlight: pace.limit, key: 'GET /V1/x', startedAt: tick() })
    if (options.heavy !== undefined) {
      heavyLevels.push(pace.heavy)
      for (let i = 0; i < 3; i++) {
        const inFlight = pace.heavy
        const ms = options.heavy(inFlight)
        // A deadline of 10 s, as the run's by default.
        pace.observe({
          ms: Math.min(ms, 10_000),
          heavy: true,
          inFlight,
          key: 'PUT /V1/guest-carts/:/order',
          startedAt: tick(),
          demand: true,
          timedOut: ms >= 10_000,
        })
      }
    }
  }
  return heavyLevels
}

describe('Pace', () => {
  it('keeps fewer requests in flight where fewer make the answers faster: the run was queueing at the shop', () => {
    const notes: string[] = []
    const pace = new Pace(8, { note: (n) => notes.push(n) })
    drive(pace, 1, () => 40)
    // A shop of 2 workers from now on: each answer waits for the ones ahead of it.
    drive(pace, 1, (inFlight) => 40 + 400 * Math.max(0, inFlight - 2))
    expect(pace.limit).toBe(4) // a trial with half as many
    drive(pace, 1, (inFlight) => 40 + 400 * Math.max(0, inFlight - 2))
    expect(pace.limit).toBe(4) // kept: 840 ms at 4 against 2440 ms at 8
    expect(notes).toEqual([
      expect.stringMatching(
        /^the run kept 4 of 8 requests in flight: answers came faster with fewer \(median 840 ms at 4, 2440 ms at 8\)/,
      ),
    ])
  })

  it('does not slow down for a shop that is as slow with fewer requests in flight (its other tenants slow it)', () => {
    const notes: string[] = []
    const pace = new Pace(8, { note: (n) => notes.push(n) })
    drive(pace, 1, () => 40)
    drive(pace, 1, () => 850)
    expect(pace.limit).toBe(4) // a trial …
    drive(pace, 1, () => 830)
    expect(pace.limit).toBe(8) // … and back: the shop is slow, not overloaded by the run
    // The slower time is its usual now: no second trial for the same time.
    drive(pace, 3, () => 840)
    expect(pace.limit).toBe(8)
    expect(notes).toEqual([
      expect.stringMatching(
        /^answers were as slow with fewer requests in flight \(median 830 ms at 4, 850 ms at 8\): the shop is slow, not overloaded by the run/,
      ),
    ])
    // Slower again later, as slow with fewer: tried once more, and back again.
    drive(pace, 1, () => 4_000)
    drive(pace, 1, () => 4_100)
    expect(pace.limit).toBe(8)
  })

  it('tries fewer once, early, where the first answers are already slow, and keeps them only if that helps', () => {
    const queueing = new Pace(8)
    drive(queueing, 2, (inFlight) => 100 * inFlight)
    expect(queueing.limit).toBe(4)
    const slow = new Pace(8)
    drive(slow, 3, () => 600)
    expect(slow.limit).toBe(8)
    // A fast shop is never tried: its answers are not queued long enough to matter.
    const fast = new Pace(8)
    drive(fast, 3, (inFlight) => 5 * inFlight)
    expect(fast.limit).toBe(8)
  })

  it('halves the requests in flight when the shop says it is overloaded, and grows back when answers are usual', () => {
    const notes: string[] = []
    const pace = new Pace(8, { note: (n) => notes.push(n) })
    drive(pace, 1, () => 40)
    pace.observe({
      ms: 40,
      heavy: false,
      inFlight: 8,
      key: 'GET /V1/x',
      startedAt: performance.now(),
      overloaded: true,
    })
    expect(pace.limit).toBe(4)
    drive(pace, 2, () => 40)
    expect(pace.limit).toBe(6)
    expect(notes).toEqual([
      'the run lowered the requests it keeps in flight to 4 of 8: the shop answered that it is overloaded (429 or 503)',
    ])
  })

  it('is not moved by one endpoint that hangs among usual answers, nor by answers merely a little slower', () => {
    const pace = new Pace(8)
    drive(pace, 1, () => 40)
    let i = 0
    drive(pace, 1, () => (i++ < 3 ? 10_000 : 40))
    expect(pace.limit).toBe(8)
    const busyMachine = new Pace(8)
    drive(busyMachine, 1, () => 2)
    drive(busyMachine, 1, () => 150)
    expect(busyMachine.limit).toBe(8)
  })

  it('sends more heavy writes at once only where more get more done, never the whole bound', () => {
    expect([new Pace(8).heavy, new Pace(4).heavy, new Pace(1).heavy]).toEqual([2, 1, 1])
    // A busy shop's two cores: each heavy write takes the longer the more there are (5 s, 7.5 s with three, …).
    // More at once is tried now and then (the shop's load changes), and given up at once: most of the time, two.
    const cores = drive(new Pace(8), 24, () => 40, { heavy: (k) => 5_000 * Math.max(1, k / 2) })
    expect(cores.filter((k) => k === 2).length).toBeGreaterThanOrEqual(18)
    // Twice as many tried once (four: 10 s each, which passes the deadline here), one more after that.
    expect(cores.filter((k) => k > 3)).toEqual([4])
    // A shop slowed by its other tenants: 9 s each, however many — twice as many while that costs nothing, up to all
    // but one place.
    const tenants = drive(new Pace(8), 5, () => 40, { heavy: () => 9_000 })
    expect(tenants).toEqual([2, 4, 7, 7, 7])
    // Where one more at once costs a little (a tenth more each), one more at a time from then on.
    const some = drive(new Pace(16), 6, () => 40, { heavy: (k) => 6_000 * (1 + Math.max(0, k - 4) * 0.05) })
    expect(some).toEqual([4, 8, 9, 10, 11, 12])
    // A kind first seen with more at once (an invoice, after the orders) says nothing of their cost: only kinds seen
    // before do.
    const kinds = new Pace(8)
    const heavy = (key: string, inFlight: number, ms: number) =>
      kinds.observe({ ms, heavy: true, inFlight, key, startedAt: performance.now(), demand: true })
    for (let i = 0; i < 3; i++) heavy('PUT /V1/guest-carts/:/order', 2, 5_000)
    expect(kinds.heavy).toBe(4)
    for (let i = 0; i < 3; i++) heavy('POST /V1/order/:/invoice', 4, 10_000)
    expect(kinds.heavy).toBe(4)
    for (let i = 0; i < 3; i++) heavy('PUT /V1/guest-carts/:/order', 4, 10_000)
    expect(kinds.heavy).toBe(2)
    // A heavy kind the shop answers fast (a registration: 40 ms) that takes ten times as long on a busy machine weighs
    // as the 40 ms it holds a worker, not as a tenfold cost beside orders of 9 s that cost nothing more at once.
    const mixed = new Pace(8)
    const write = (key: string, inFlight: number, ms: number) =>
      mixed.observe({ ms, heavy: true, inFlight, key, startedAt: performance.now(), demand: true })
    write('POST /V1/customers', 2, 40)
    for (let i = 0; i < 2; i++) write('PUT /V1/guest-carts/:/order', 2, 9_000)
    expect(mixed.heavy).toBe(4)
    write('POST /V1/customers', 4, 400)
    for (let i = 0; i < 2; i++) write('PUT /V1/guest-carts/:/order', 4, 9_000)
    expect(mixed.heavy).toBe(7)
    // The first write of a kind (a product saved) passing its deadline in a trial: the deadline of a kind not seen yet
    // (--timeout-ms) was short, not the number at once; the trial goes on.
    const first = new Pace(8)
    const order = (inFlight: number, ms: number, key = 'PUT /V1/guest-carts/:/order', timedOut = false) =>
      first.observe({ ms, heavy: true, inFlight, key, startedAt: performance.now(), demand: true, timedOut })
    for (let i = 0; i < 3; i++) order(2, 9_000)
    expect(first.heavy).toBe(4)
    order(2, 10_000, 'POST /V1/products', true)
    order(4, 10_000, 'POST /V1/products', true)
    expect(first.heavy).toBe(4)
    for (let i = 0; i < 3; i++) order(4, 9_000)
    expect(first.heavy).toBe(7)
    // Heavy writes past their deadline at any number: no more at once (the deadline, not the number, is short).
    const late = drive(new Pace(8), 6, () => 40, { heavy: () => 15_000 })
    expect(late).toEqual([2, 2, 2, 2, 2, 2])
  })

  it('knows the heavy writes and the writes the platform deadlocks on side by side', () => {
    expect(isHeavyWrite('PUT', '/V1/carts/mine/order')).toBe(true)
    expect(isHeavyWrite('POST', '/V1/order/12/invoice')).toBe(true)
    expect(isHeavyWrite('POST', '/V1/invoice/3/refund')).toBe(true)
    expect(isHeavyWrite('POST', '/V1/products')).toBe(true)
    expect(isHeavyWrite('POST', '/V1/customers')).toBe(true)
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
    const release: (() => void)[] = []
    const work = (name: string) => () => new Promise<void>((r) => (log.push(name), release.push(r)))
    const all = [
      bound.run(work('heavy 1'), undefined, 'heavy'),
      bound.run(work('heavy 2'), undefined, 'heavy'),
      bound.run(work('light 1')),
      bound.run(work('light 2')),
    ]
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
    const cap = new RateCap(rateShare(10))
    const started: number[] = []
    const all = Array.from({ length: 3 }, () => cap.take().then(() => started.push(Date.now())))
    await vi.advanceTimersByTimeAsync(1_000)
    await Promise.all(all)
    expect(started).toEqual([0, 100, 200])
    await expect(new RateCap(undefined).take()).resolves.toBeUndefined()
  })

  it("is one cap for every client given the run's share (issue 31.2): the preflight's, the checks', the cleanup's", async () => {
    vi.useFakeTimers({ now: 5_000 })
    const share = rateShare(4)!
    // Each client its own cap of the one share: the worker thread's gets a copy of the share whose memory is the same.
    const [preflight, checks] = [new RateCap(share), new RateCap(structuredClone(share))]
    const started: [string, number][] = []
    const take = (who: string, cap: RateCap) => cap.take().then(() => started.push([who, Date.now()]))
    const all = [
      take('preflight', preflight),
      take('checks', checks),
      take('preflight', preflight),
      take('checks', checks),
    ]
    await vi.advanceTimersByTimeAsync(750)
    await Promise.all(all)
    expect(started).toEqual([
      ['preflight', 5_000],
      ['checks', 5_250],
      ['preflight', 5_500],
      ['checks', 5_750],
    ])
    // A cleanup process continues from the run's next start.
    expect(nextStartMs(share)).toBe(6_000)
    const cleanup = new RateCap(rateShare(4, nextStartMs(share)))
    const at = cleanup.take().then(() => Date.now())
    await vi.advanceTimersByTimeAsync(1_000)
    expect(await at).toBe(6_000)
  })

  it('gives no turn once its client is stopped, and stops a wait for one', async () => {
    vi.useFakeTimers({ now: 0 })
    const cap = new RateCap(rateShare(1))
    const stopping = new AbortController()
    await cap.take(stopping.signal)
    const waiting = cap.take(stopping.signal).then(() => Date.now())
    await vi.advanceTimersByTimeAsync(100)
    stopping.abort()
    expect(await waiting).toBe(100)
    await expect(cap.take(stopping.signal)).resolves.toBeUndefined()
  })
})
