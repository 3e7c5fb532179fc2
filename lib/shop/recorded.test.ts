/**
 * A run's recorded exchanges read back as the sender's answers (recorded.ts), on exchanges written here: whom each
 * was sent as, what its answer was, and which caller of a sequence each is. The real runs read back and re-judged:
 * lib/checks/real-runs.test.ts.
 */
import { describe, expect, it } from 'vitest'
import type { Exchange } from '../results/exchange.ts'
import type { SequencePlan } from './probe.ts'
import { answersFromRecorded, recordedProbe } from './recorded.ts'

const NOTHING = { noRoute: () => false, unknownStore: () => false }
const STORES = { first: 'default', second: 'all' }

function exchange(
  method: string,
  path: string,
  auth: string | undefined,
  status: number,
  body: unknown,
  type = 'application/json; charset=utf-8',
): Exchange {
  return {
    request: {
      method,
      url: `http://shop.test/rest/default${path}`,
      headers: auth === undefined ? {} : { authorization: auth },
    },
    response: { status, headers: { 'content-type': type }, body },
    durationMs: 1,
  }
}

/** A self endpoint's sequence: the refused callers and another customer first, the cart's owner last. */
const SELF: SequencePlan = {
  method: 'PUT',
  template: '/V1/carts/mine/items/:itemId',
  groups: [['none', 'malformed', 'other customer'], ['customer']],
  witness: 'customer',
  again: 'fresh',
  optional: ['other customer', 'limited admin'],
  fallback: [
    {
      request: { caller: 'customer', store: 'first' },
      call: { method: 'PUT', path: '/V1/carts/mine/items/999999', body: {} },
    },
  ],
}

describe('a recorded exchange read back', () => {
  it('names its caller by the Authorization header the run redacted', () => {
    const caller = (auth: string | undefined) =>
      recordedProbe(exchange('GET', '/V1/modules', auth, 200, []), NOTHING).caller
    expect(caller(undefined)).toBe('none')
    expect(caller('Bearer shop-conformance-malformed-9dc882f752dd')).toBe('malformed')
    expect(caller('Bearer [redacted admin token]')).toBe('admin')
    expect(caller('Bearer [redacted admin token given as SHOP_ADMIN_TOKEN]')).toBe('admin')
    expect(caller('Bearer [redacted limited admin token]')).toBe('limited admin')
    expect(caller('Bearer [redacted customer token]')).toBe('customer')
    expect(caller('Bearer [redacted fresh customer token]')).toBe('customer')
  })

  it('is the answer it was: JSON parsed, a JSON string, text that is no JSON, a body recorded only in part', () => {
    const answer = (body: unknown, type?: string) =>
      recordedProbe(exchange('GET', '/V1/x', undefined, 200, body, type), NOTHING).probe.answer!
    expect(answer([1])).toMatchObject({ json: true, text: '[1]' })
    expect(answer('')).toMatchObject({ json: true, body: '', text: '""' })
    expect(answer('An error has happened during application run.\n', 'text/plain;charset=UTF-8')).toMatchObject({
      json: false,
      text: 'An error has happened during application run.\n',
    })
    expect(answer('{"items":[{"id":1,"code":"refer')).toMatchObject({ json: false })
    expect(answer('[{"id":1}… [4000 more characters not recorded]')).toMatchObject({ json: true, text: '[{"id":1}' })
    // A token's answer, recorded redacted: the JSON string it was, not a list cut short (a token issued is seen).
    expect(answer('[redacted customer token]')).toMatchObject({ json: true, text: '"[redacted customer token]"' })
    expect(
      recordedProbe(
        { ...exchange('GET', '/V1/x', undefined, 200, null), response: undefined, error: 'timeout after 10000 ms' },
        NOTHING,
      ).probe.failure,
    ).toEqual({ kind: 'timeout', message: 'timeout after 10000 ms' })
  })
})

describe('a sequence read back from its exchanges', () => {
  const plan = { calls: [], sequence: SELF }
  const sent = [
    exchange('PUT', '/V1/carts/mine/items/26', undefined, 401, { message: 'no' }),
    exchange('PUT', '/V1/carts/mine/items/26', 'Bearer shop-conformance-malformed-1a', 401, { message: 'no' }),
    exchange('PUT', '/V1/carts/mine/items/26', 'Bearer [redacted customer token]', 404, {
      message: 'Current customer does not have an active cart.',
    }),
    exchange('PUT', '/V1/carts/mine/items/26', 'Bearer [redacted customer token]', 200, { item_id: 26 }),
  ].map((e) => recordedProbe(e, NOTHING))

  it('gives the admitted caller the last call with its token, another customer the one before', () => {
    const s = answersFromRecorded(plan, sent, STORES).sequence!
    expect(s.unbuilt).toBeUndefined()
    expect([...s.probes].map(([caller, p]) => `${caller} ${p.answer!.status}`)).toEqual([
      'none 401',
      'malformed 401',
      'other customer 404',
      'customer 200',
    ])
    // The route check's result records the admitted caller's call alone: it is that caller's.
    expect([...answersFromRecorded(plan, [sent[3]!], STORES).sequence!.probes.keys()]).toEqual(['customer'])
  })

  it("reads placeholder calls as the fallback's, where the admitted caller's was its placeholder call or the run says so", () => {
    const placeholder = recordedProbe(
      exchange('PUT', '/V1/carts/mine/items/999999', 'Bearer [redacted customer token]', 404, { message: 'x' }),
      NOTHING,
    )
    expect(answersFromRecorded(plan, [placeholder], STORES).sequence).toMatchObject({
      unbuilt: { reason: 'no-valid-request' },
      probes: new Map([['customer', placeholder.probe]]),
    })
    const said = answersFromRecorded(plan, sent, STORES, { message: 'no cart to name', reason: 'setup-failed' })
      .sequence!
    expect(said).toMatchObject({ unbuilt: { message: 'no cart to name', reason: 'setup-failed', exchanges: [] } })
    expect(said.probes.size).toBe(0)
  })

  it("gives a planned call nothing was recorded for the reason the sender had not to send it, from the run's settings", () => {
    const readOnly = { readOnly: true, customer: { reads: false, writes: false } }
    const write = {
      request: { caller: 'admin' as const, store: 'first' as const },
      call: { method: 'POST' as const, path: '/V1/products', body: {} },
    }
    const byCustomer = {
      request: { caller: 'customer' as const, store: 'second' as const },
      call: { method: 'GET' as const, path: '/V1/customers/me' },
    }
    const byLimited = {
      request: { caller: 'limited admin' as const, store: 'first' as const },
      call: { method: 'GET' as const, path: '/V1/modules' },
    }
    const calls = answersFromRecorded({ calls: [write, byCustomer, byLimited] }, [], STORES, undefined, readOnly).calls
    expect([...calls.values()].map((p) => [p.store, p.unavailableReason])).toEqual([
      ['default', 'read-only'],
      ['all', 'no-customer-token'],
      ['default', 'not-configured'],
    ])
    // A call the run could send that is not recorded is not in the recording: no judge reads it as an answer.
    const full = {
      readOnly: false,
      limitedAdmin: { username: 'clerk', resources: [] },
      customer: { reads: true, writes: true },
    }
    expect([...answersFromRecorded({ calls: [byLimited] }, [], STORES, undefined, full).calls.values()]).toMatchObject([
      { unavailable: 'not in the recording', unavailableReason: 'not-recorded' },
    ])
    // A sequence at a write in read-only mode: its valid request never made, as the sender's fallback; a caller with no
    // token not sent.
    const s = answersFromRecorded(plan, [], STORES, undefined, readOnly).sequence!
    expect(s).toMatchObject({
      unbuilt: { reason: 'read-only' },
      probes: new Map([['customer', { unavailableReason: 'read-only' }]]),
    })
    const reads = answersFromRecorded(
      { calls: [], sequence: { ...SELF, method: 'GET', fallback: [] } },
      sent.slice(0, 2),
      STORES,
      undefined,
      readOnly,
    ).sequence!
    expect(reads.unbuilt).toMatchObject({ reason: 'no-customer-token' })
  })
})
