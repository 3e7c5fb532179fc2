/**
 * What the session's one door does with an answer before any check sees it (issues 21, 29): a read that got no answer
 * is asked once more, a write never; a deadlock is sent once more after a pause — a read or a write that sets a state
 * at once, an order placed or an item added once the cart shows the attempt changed nothing, any other write never —
 * and twice is no answer to judge. Without a target: the client's send is replaced by a script of outcomes (what it
 * does while the cart's turn is held runs as the client runs it).
 */
import { afterEach, describe, expect, it } from 'vitest'
import type { Outcome, RequestSpec, TransportFailureKind } from './request.ts'
import { Session } from './session.ts'
import { STAND_IN_SEED } from './testing.ts'
import { DEADLOCK_PAUSE_MS } from './deadlock.ts'
import { endpointText } from '../spec/endpoint-id.ts'

const SEED = STAND_IN_SEED

const exchange = (method: string) => ({
  request: { method, url: 'http://127.0.0.1:9/rest/default/V1/x', headers: {} },
  durationMs: 1,
})
const answered = (status: number, body: unknown, method = 'GET'): Outcome => ({
  answer: { status, headers: {}, body, json: true, text: JSON.stringify(body) },
  exchange: exchange(method),
})
const unanswered = (kind: TransportFailureKind, method = 'GET'): Outcome => ({
  failure: { kind, message: `${kind} after 1000 ms` },
  exchange: exchange(method),
})
const DEADLOCK = {
  message:
    'SQLSTATE[40001]: Serialization failure: 1213 Deadlock found when trying to get lock; try restarting transaction',
}

const sessions: Session[] = []
afterEach(async () => {
  for (const s of sessions.splice(0)) await s.client.close()
})

/** A session whose client answers each request with the next outcome of the script, and counts what it was sent. */
function scripted(...script: Outcome[]): { session: Session; sent: RequestSpec[] } {
  const session = new Session(SEED)
  sessions.push(session)
  const sent: RequestSpec[] = []
  const next = (spec: RequestSpec): Promise<Outcome> => {
    sent.push(spec)
    const outcome = script.shift()
    if (outcome === undefined)
      return Promise.reject(new Error('the script ran out: the session sent more than the test expected'))
    return Promise.resolve(outcome)
  }
  Object.assign(session.client, {
    send: (spec: RequestSpec, _lane: unknown, held?: (send: () => Promise<Outcome>) => Promise<Outcome>) =>
      held === undefined ? next(spec) : held(() => next(spec)),
  })
  return { session, sent }
}

const GET: RequestSpec = { method: 'GET', path: '/V1/x', store: 'default', token: 'admin-token' }
const POST: RequestSpec = { method: 'POST', path: '/V1/x', store: 'default', token: 'admin-token', body: {} }
const PUT_ITEM: RequestSpec = {
  method: 'PUT',
  path: '/V1/carts/5/items/1',
  store: 'default',
  token: 'admin-token',
  body: { cartItem: { qty: 3 } },
}
const SHIPPING: RequestSpec = {
  method: 'POST',
  path: '/V1/carts/mine/shipping-information',
  store: 'default',
  token: 'customer-token',
  body: { addressInformation: {} },
}
const ADD_ITEM: RequestSpec = {
  method: 'POST',
  path: '/V1/carts/5/items',
  store: 'default',
  token: 'admin-token',
  body: { cartItem: { sku: 'sc-main', qty: 1, quote_id: 5 } },
}
const PLACE: RequestSpec = {
  method: 'PUT',
  path: '/V1/guest-carts/abc/order',
  store: 'default',
  body: { paymentMethod: { method: 'checkmo' } },
}

describe("the session's door", () => {
  it('asks a read that got no answer once more, and says so on the exchange', async () => {
    for (const kind of ['timeout', 'connection', 'protocol'] as const) {
      const { session, sent } = scripted(unanswered(kind), answered(200, { ok: true }))
      const outcome = await session.send(GET)
      expect(sent, kind).toHaveLength(2)
      expect(outcome.answer?.status).toBe(200)
      expect(outcome.exchange.note).toBe(`asked again after no answer (${kind} after 1000 ms)`)
    }
  })

  it('asks it once more only: two timeouts are no answer, left for the check to call not judged', async () => {
    const { session, sent } = scripted(unanswered('timeout'), unanswered('timeout'))
    const outcome = await session.send(GET)
    expect(sent).toHaveLength(2)
    expect(outcome).toMatchObject({ failure: { kind: 'timeout' } })
  })

  it('never repeats a write that got no answer (it may have been made), a target gone, a run stopping, or a set-up call that repeats itself', async () => {
    for (const [spec, kind] of [
      [POST, 'timeout'],
      [GET, 'target-gone'],
      [GET, 'stopped'],
      [{ ...GET, ownRepeats: true }, 'timeout'],
    ] as const) {
      const { session, sent } = scripted(unanswered(kind, spec.method))
      expect((await session.send(spec)).failure?.kind).toBe(kind)
      expect(sent).toHaveLength(1)
    }
  })

  it('sends a read or a write that sets a state once more after a deadlock, at once (after a pause): nothing more can change', async () => {
    for (const spec of [GET, PUT_ITEM, SHIPPING]) {
      const { session, sent } = scripted(answered(500, DEADLOCK, spec.method), answered(200, { id: 7 }, spec.method))
      const started = performance.now()
      const outcome = await session.send(spec)
      expect(performance.now() - started).toBeGreaterThanOrEqual(DEADLOCK_PAUSE_MS - 5)
      expect(
        sent.map((s) => s.method),
        spec.path,
      ).toEqual([spec.method, spec.method])
      expect(outcome.answer?.body).toEqual({ id: 7 })
      expect(outcome.exchange.note).toMatch(/^sent again after a deadlock \(500 "SQLSTATE\[40001\]/)
    }
  })

  it("takes a deadlock twice for the run's own load: no answer (kind deadlock), never the shop's answer to judge", async () => {
    const { session, sent } = scripted(answered(400, DEADLOCK, 'PUT'), answered(400, DEADLOCK, 'PUT'))
    const outcome = await session.send(PUT_ITEM)
    expect(sent).toHaveLength(2)
    expect(outcome.answer).toBeUndefined()
    expect(outcome.failure).toMatchObject({
      kind: 'deadlock',
      message: expect.stringMatching(/^the shop answered a database deadlock twice/),
    })
  })

  it('sends an item added again only once the cart, read before and after, shows the attempt added nothing', async () => {
    const cart = (qty: number) =>
      answered(200, { id: 5, is_active: true, items: [{ item_id: 1, sku: 'sc-main', qty }] })
    const added = scripted(
      cart(1),
      answered(500, DEADLOCK, 'POST'),
      cart(1),
      answered(200, { item_id: 1, sku: 'sc-main', qty: 2 }, 'POST'),
    )
    const outcome = await added.session.send(ADD_ITEM)
    expect(added.sent.map(endpointText)).toEqual([
      'GET /V1/carts/5',
      'POST /V1/carts/5/items',
      'GET /V1/carts/5',
      'POST /V1/carts/5/items',
    ])
    expect(added.sent[0]!.token).toBe(ADD_ITEM.token)
    expect(outcome.answer?.status).toBe(200)
    expect(outcome.exchange.note).toMatch(/, once the cart showed the attempt changed nothing$/)
    // The cart shows more of the sku than before: the attempt may have added it, and is not sent again.
    const changed = scripted(cart(1), answered(500, DEADLOCK, 'POST'), cart(2))
    expect((await changed.session.send(ADD_ITEM)).failure).toMatchObject({
      kind: 'deadlock',
      message: expect.stringMatching(/does not show that the attempt changed nothing: not sent again$/),
    })
    expect(changed.sent).toHaveLength(3)
  })

  it('places an order again only while its cart is still active; any other write is never sent again', async () => {
    const placed = scripted(
      answered(500, DEADLOCK, 'PUT'),
      answered(200, { id: 5, is_active: true, items: [] }),
      answered(200, 42, 'PUT'),
    )
    expect((await placed.session.send(PLACE)).answer?.body).toBe(42)
    expect(placed.sent.map(endpointText)).toEqual([
      'PUT /V1/guest-carts/abc/order',
      'GET /V1/guest-carts/abc',
      'PUT /V1/guest-carts/abc/order',
    ])
    // The cart is gone (an order was placed from it, or it cannot be read): not sent again.
    const gone = scripted(
      answered(500, DEADLOCK, 'PUT'),
      answered(404, { message: 'No such entity with cartId = abc' }),
    )
    expect((await gone.session.send(PLACE)).failure?.kind).toBe('deadlock')
    expect(gone.sent).toHaveLength(2)
    const other = scripted(answered(400, DEADLOCK, 'POST'))
    expect((await other.session.send(POST)).failure).toMatchObject({
      kind: 'deadlock',
      message: expect.stringMatching(/cannot tell what a write like this one made: not sent again$/),
    })
    expect(other.sent).toHaveLength(1)
  })

  it('takes a "could not save" wrapper without the database\'s words as the shop\'s answer (the platform refuses an address so)', async () => {
    const { session, sent } = scripted(
      answered(400, { message: 'The address failed to save. Verify the address and try again.' }, 'POST'),
    )
    expect((await session.send(SHIPPING)).answer?.status).toBe(400)
    expect(sent).toHaveLength(1)
  })

  it('leaves any other refusal as the shop answered it, sent once', async () => {
    const { session, sent } = scripted(answered(400, { message: '"sku" is required.' }, 'POST'))
    expect((await session.send(POST)).answer?.status).toBe(400)
    expect(sent).toHaveLength(1)
  })
})
