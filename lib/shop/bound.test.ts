import { describe, expect, it } from 'vitest'
import { Bound, Lane } from './bound.ts'

/** A request that answers when told to; `order` records who started when. */
function requests(bound: Bound, order: string[]) {
  const open = new Map<string, () => void>()
  const send = (name: string, lane?: Lane) =>
    bound.run(() => {
      order.push(name)
      return new Promise<string>((resolve) => open.set(name, () => resolve(name)))
    }, lane)
  const answer = async (name: string) => {
    open.get(name)!()
    open.delete(name)
    await new Promise((r) => setTimeout(r, 0))
  }
  return { send, answer, inFlight: () => [...open.keys()] }
}

describe("the client's bound", () => {
  it('never has more than its size in flight, and starts waiting work in the order it came', async () => {
    const order: string[] = []
    const bound = new Bound(2)
    const r = requests(bound, order)
    const all = ['a', 'b', 'c', 'd'].map((n) => r.send(n))
    await new Promise((res) => setTimeout(res, 0))
    expect(r.inFlight()).toEqual(['a', 'b'])
    await r.answer('a')
    expect(r.inFlight()).toEqual(['b', 'c'])
    await r.answer('b')
    await r.answer('c')
    await r.answer('d')
    expect(await Promise.all(all)).toEqual(['a', 'b', 'c', 'd'])
    expect(order).toEqual(['a', 'b', 'c', 'd'])
  })

  it('lets work started ahead take only the places current work leaves free, and promotes it when its turn begins', async () => {
    const order: string[] = []
    const bound = new Bound(2)
    const r = requests(bound, order)
    const next = new Lane()
    const later = new Lane()
    // Ahead work asked first fills the free places…
    void r.send('ahead-1', next)
    void r.send('ahead-2', next)
    void r.send('ahead-3', next)
    void r.send('later-1', later)
    await new Promise((res) => setTimeout(res, 0))
    expect(r.inFlight()).toEqual(['ahead-1', 'ahead-2'])
    // …but a current request asked after it goes first once a place frees.
    void r.send('now-1')
    void r.send('now-2')
    await r.answer('ahead-1')
    expect(r.inFlight()).toEqual(['ahead-2', 'now-1'])
    // Its turn begun, the next module's waiting request goes before the later module's, behind current work.
    next.begin()
    await r.answer('ahead-2')
    expect(r.inFlight()).toEqual(['now-1', 'now-2'])
    await r.answer('now-1')
    expect(r.inFlight()).toEqual(['now-2', 'ahead-3'])
    await r.answer('now-2')
    expect(r.inFlight()).toEqual(['ahead-3', 'later-1'])
  })

  it('a request that throws frees its place', async () => {
    const bound = new Bound(1)
    await expect(bound.run(() => Promise.reject(new Error('refused')))).rejects.toThrow('refused')
    await expect(bound.run(() => Promise.resolve('next'))).resolves.toBe('next')
  })
})
