/**
 * The access check's judge on the answers it is handed — made up, or a real 2.4.7 instance's recorded ones —
 * and the fault switches that break it: no target. Its runs against the reference target, clean and under a fault
 * switch: access.test.ts.
 */
import { describe, expect, it } from 'vitest'
import { findRow, rowId } from '../spec/catalog/index.ts'
import type { SequenceCaller } from '../shop/probe.ts'
import { accessCheck, judgeAccessCheck } from './access.ts'
import { judgeCell } from '../spec/admission.ts'
import { byStatus, faultsBreaking, NOT_ON_247 } from './testing.ts'
import {
  answersOf,
  FULL,
  NO_CUSTOMER_TOKEN,
  NO_ROUTE,
  observedAnswers,
  OK,
  reply,
  UNAUTHORIZED,
  type Reply,
} from './testing-answers.ts'

/**
 * The access verdict of a row whose callers got `replyOf(caller)`: its valid request's answers, or its placeholder
 * calls' (`unbuilt`).
 */
function accessOf(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  replyOf: (caller: SequenceCaller) => Reply | undefined,
  unbuilt = false,
) {
  const row = findRow(method, path)!
  const answers = answersOf(accessCheck.probes(row, FULL), (c) => replyOf(c.request.caller), {
    reply: replyOf,
    ...(unbuilt ? { unbuilt: { message: 'set-up failed', reason: 'setup-failed' as const, exchanges: [] } } : {}),
  })
  return judgeAccessCheck(row, answers)
}
/** As the class says: a refusal to the callers it refuses, a success to the others. */
const asSpecSays = (admitted: readonly SequenceCaller[]) => (caller: SequenceCaller) =>
  admitted.includes(caller) ? OK : UNAUTHORIZED

describe('the access judge', () => {
  it('passes an endpoint that refuses and lets through as its class says, and shows the matrix', () => {
    const admin = accessOf('GET', '/V1/modules', asSpecSays(['admin']))
    expect(admin.status).toBe('passed')
    expect(admin.details).toMatchObject({
      accessClass: 'admin',
      witnessed: true,
      matrix: {
        none: { expected: 'refuse', seen: 'refused', ok: true },
        malformed: { expected: 'refuse', seen: 'refused', ok: true },
        customer: { expected: 'refuse', seen: 'refused', ok: true },
        admin: { expected: 'accept', seen: 'accepted', ok: true },
      },
    })
    expect(accessOf('GET', '/V1/directory/currency', () => OK).details).toMatchObject({
      matrix: { none: { expected: 'accept', ok: true }, customer: { expected: 'not stated', ok: null } },
    })
    // A self read: the customer's valid request is the witness; the admin's placeholder call must be let through too.
    expect(accessOf('GET', '/V1/customers/me', asSpecSays(['customer', 'admin']))).toMatchObject({
      status: 'passed',
      details: { witness: 'customer', matrix: { admin: { ok: true } } },
    })
  })

  it('names the wrong cells in the message, with the evidence of each', () => {
    const v = accessOf('GET', '/V1/modules', () => OK)
    expect(v.message).toMatch(
      /^admin endpoint: no token let through \(200 \[\]\) where the spec says refuse; malformed token let through .*; customer token let through/,
    )
    expect(v.exchanges).toHaveLength(4)
  })

  it('reads a 404 to a refused caller as a refusal only where the admitted caller got a success for the same request', () => {
    const hidden = (caller: SequenceCaller) => (caller === 'admin' ? OK : reply(404, { message: 'No such entity.' }))
    expect(accessOf('GET', '/V1/cmsBlock/:blockId', hidden).status).toBe('passed')
    // With placeholder values (no valid request could be made) the admin gets a 404 too, and a 404 may be about the
    // data: not judged, and why.
    const v = accessOf('GET', '/V1/cmsBlock/:blockId', () => reply(404, { message: 'No such entity.' }), true)
    expect(v).toMatchObject({ status: 'skipped', reason: 'setup-failed' })
    expect(v.message).toMatch(/\(probed with placeholder values: set-up failed\)$/)
  })

  // A missing route is counted once, by the route check, in every mode: in read-only mode a caller the run has no token
  // for (no customer is registered) is not sent, and the callers that are sent all got the no-route answer.
  it('does not judge an endpoint whose route is missing, and does not pass it either, read-only included', () => {
    expect(accessOf('GET', '/V1/directory/currency', () => NO_ROUTE)).toMatchObject({
      status: 'skipped',
      reason: 'route-missing',
      message: expect.stringMatching(/see the route check/),
    })
    expect(
      accessOf('GET', '/V1/directory/currency', (caller) => (caller === 'customer' ? NO_CUSTOMER_TOKEN : NO_ROUTE)),
    ).toMatchObject({ status: 'skipped', reason: 'route-missing' })
  })

  // Point 3 of issue 9: a plain 500 read as "no token let through" is a false security alarm.
  it('does not judge access, and names what happened, when the admitted caller gets no usable answer', () => {
    const broken: [Reply | undefined, RegExp][] = [
      [undefined, /got no answer/],
      [
        reply(500, { message: 'Internal Error.' }),
        /got a server error \(500 "Internal Error\.".*the run lists it with its server errors$/,
      ],
      [reply(200, undefined, { text: '', json: false }), /got an empty body/],
      [reply(200, undefined, { text: '<html>', json: false }), /got a body that is not JSON/],
      [reply(429, { message: 'Too many requests' }), /got a rate limit/],
    ]
    for (const [answer, what] of broken) {
      const v = accessOf('GET', '/V1/customerGroups/search', (caller) =>
        caller === 'admin' ? answer : reply(404, { message: 'No such entity.' }),
      )
      expect(v.status, v.message).toBe('skipped')
      expect(v.message).toMatch(/^not judged: the caller the spec admits \(admin token\) /)
      expect(v.message).toMatch(what)
      expect(v.message).not.toMatch(/let through/)
    }
  })

  // Issue 29.6, the real shop opened to every caller: `200 true` to the callers without a token, the malformed token
  // and the customer, then 400 to the admin, asked last (the others had already assigned the product).
  it('fails a success to a refused caller although the admitted caller, asked last, got none', () => {
    const assigned = (caller: SequenceCaller) =>
      caller === 'admin'
        ? reply(400, { message: 'Could not assign product "%1" to websites "%2"', parameters: ['sku', '1'] })
        : OK
    for (const method of ['POST', 'PUT'] as const) {
      const v = accessOf(method, '/V1/products/:sku/websites', assigned)
      expect(v.status, method).toBe('failed')
      expect(v.message).toMatch(
        /^admin endpoint: no token let through \(200 \[\]\) where the spec says refuse; .*; the caller the spec admits \(admin token\) then got 400 /,
      )
      expect(v.details).toMatchObject({
        witnessed: false,
        matrix: { none: { ok: false }, malformed: { ok: false }, customer: { ok: false }, admin: { ok: true } },
      })
    }
  })

  // Issue 29.5: "Self: … an admin token also works". The admin is sent, at a `mine` write, a request whose data the
  // shop refuses (it can make nothing): a 401/403 is the admin refused; another 4xx is its data refused, so let
  // through.
  it('probes the admin at a mine write with data the shop refuses, and fails a refusal of its token', () => {
    const row = findRow('POST', '/V1/carts/mine/billing-address')!
    const after = accessCheck.probes(row, FULL).after ?? []
    expect(after).toHaveLength(1)
    expect(after[0]).toMatchObject({
      request: { caller: 'admin' },
      call: {
        method: 'POST',
        path: '/V1/carts/mine/billing-address',
        body: { address: { region_id: expect.any(String) } },
      },
    })
    const self = (admin: Reply) => (caller: SequenceCaller) => {
      if (caller === 'admin') return admin
      return caller === 'customer' ? OK : UNAUTHORIZED
    }
    const refused = accessOf('POST', '/V1/carts/mine/billing-address', self(UNAUTHORIZED))
    expect(refused.status).toBe('failed')
    expect(refused.message).toMatch(/admin token refused \(401 .*\) where the spec says accept/)
    const dataRefused = accessOf(
      'POST',
      '/V1/carts/mine/billing-address',
      self(reply(400, { message: '"cartId" is required. Enter and try again.' })),
    )
    expect(dataRefused).toMatchObject({
      status: 'passed',
      details: { matrix: { admin: { expected: 'accept', seen: 'other 4xx', ok: true } } },
    })
    // What a success could make is in the ledger before it leaves; the other self writes send the admin nothing.
    expect(accessCheck.probes(findRow('PUT', '/V1/carts/mine/order')!, FULL).after?.[0]?.call.creates).toBe('order')
    expect(accessCheck.probes(findRow('PUT', '/V1/guest-carts/:cartId')!, FULL).after).toBeUndefined()
  })

  // Issue 29: the real 2.4.7-p7 shop answered its admin 500 to an option id of the suite's that was stale; the others
  // 401.
  it("does not judge access for a server error, the admitted caller's or a refused caller's: reason server-error, the report id quoted", () => {
    const platform = reply(500, {
      message: 'Internal Error. Details are available in Magento log file. Report ID: webapi-6b0bb8ac94d3c',
    })
    const witness = accessOf('PUT', '/V1/configurable-products/:sku/options/:id', (caller) =>
      caller === 'admin' ? platform : UNAUTHORIZED,
    )
    expect(witness).toMatchObject({
      status: 'skipped',
      reason: 'server-error',
      details: { witnessed: false, matrix: { admin: { seen: 'no usable answer' } } },
    })
    expect(witness.message).toMatch(
      /^not judged: the caller the spec admits \(admin token\) got a server error \(500 .*Report ID: webapi-6b0bb8ac94d3c"\), not the success .*the run lists it with its server errors$/,
    )
    const refused = accessOf('GET', '/V1/modules', (caller) => {
      if (caller === 'customer') return platform
      return caller === 'admin' ? OK : UNAUTHORIZED
    })
    expect(refused).toMatchObject({
      status: 'skipped',
      reason: 'server-error',
      message: expect.stringMatching(/^not fully judged: customer token got no usable answer \(a server error \(500 /),
    })
    // A gateway's 5xx to every caller at an anonymous endpoint: the same.
    expect(
      accessOf('GET', '/V1/directory/currency', () => reply(502, undefined, { text: 'Bad Gateway', json: false })),
    ).toMatchObject({ status: 'skipped', reason: 'server-error' })
  })

  it('never reads a 5xx, a body that is not JSON or another 4xx to a caller the spec refuses as "let through"', () => {
    for (const seen of ['no usable answer', 'other 4xx', 'no-route', 'not sent'] as const)
      expect(judgeCell('refuse', seen), seen).toBeNull()
    expect(judgeCell('refuse', 'accepted')).toBe(false)
    expect(judgeCell('refuse', 'refused')).toBe(true)
    expect(judgeCell('accept', 'other 4xx')).toBe(true)
    expect(judgeCell('accept', 'refused')).toBe(false)
    expect(judgeCell('accept', 'no usable answer')).toBeNull()
  })

  it('agrees with a real 2.4.7 instance: 271 endpoints follow their class, 7 are not served (its recorded answers)', () => {
    const status = byStatus(
      new Map(observedAnswers(accessCheck).map(({ row, answers }) => [rowId(row), judgeAccessCheck(row, answers)])),
    )
    expect(status.failed).toEqual([])
    expect(status.skipped).toEqual([...NOT_ON_247].sort())
    expect(status.passed).toHaveLength(271)
  })
})

describe('access check', () => {
  it('covers every access fault switch of the reference target', () => {
    expect([...faultsBreaking('access')].sort()).toEqual([
      'admin-open',
      'anon-requires-token',
      'any-bearer-accepted',
      'customer-token-on-admin',
      'self-refuses-admin',
      'self-refuses-customer',
    ])
  })

  // Issue 31.15, from the runs against a real shop.
  it('words an admitted caller that got another 4xx "not refused", never "let through" a success it did not get', () => {
    const v = accessOf('PUT', '/V1/customerGroups/default/:id', (caller) =>
      caller === 'admin' ? reply(404, { message: 'No such entity with id = 999999' }) : UNAUTHORIZED,
    )
    expect(v.status).toBe('passed')
    expect(v.message).toContain('admin token not refused (404)')
    expect(v.message).not.toContain('let through (404)')
    expect(accessOf('PUT', '/V1/customerGroups/default/:id', asSpecSays(['admin'])).message).toContain(
      'admin token let through (200)',
    )
  })

  it('leaves a caller that timed out unjudged for the timeout, not for "no usable answer"', () => {
    const v = accessOf('PUT', '/V1/customerGroups/default/:id', (caller) =>
      caller === 'customer' ? undefined : asSpecSays(['admin'])(caller),
    )
    expect(v).toMatchObject({ status: 'skipped', reason: 'timeout' })
    // The admitted caller's own timeout was already its reason.
    expect(
      accessOf('PUT', '/V1/customerGroups/default/:id', (caller) => (caller === 'admin' ? undefined : UNAUTHORIZED)),
    ).toMatchObject({ status: 'skipped', reason: 'timeout' })
  })
})
