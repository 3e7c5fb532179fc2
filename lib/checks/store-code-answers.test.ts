/**
 * The store-code check's judge on the answers it is handed — made up, or a real 2.4.7 instance's recorded ones:
 * no target. Its runs against the reference target, clean and under a fault
 * switch: store-code.test.ts.
 */
import { describe, expect, it } from 'vitest'
import { findRow, rowId } from '../spec/catalog/index.ts'
import { judgeStoreCode, storeCodeCheck } from './store-code.ts'
import { byStatus, NOT_ON_247 } from './testing.ts'
import { answersOf, FULL, NO_ROUTE, observedAnswers, OK, reply, type Reply } from './testing-answers.ts'

/**
 * The store-code verdict of a row whose admitted caller got `first` under the configured store code and `second` under
 * the second one.
 */
function storeCodeOf(method: 'GET' | 'POST', path: string, first: Reply | undefined, second: Reply | undefined) {
  const row = findRow(method, path)!
  return judgeStoreCode(
    row,
    answersOf(storeCodeCheck.probes(row, FULL), (c) => (c.request.store === 'second' ? second : first), {
      reply: () => first,
    }),
  )
}

describe('store-code check', () => {
  it('passes an endpoint served under both store codes, the same caller asking', () => {
    expect(storeCodeOf('GET', '/V1/directory/currency', OK, OK)).toMatchObject({
      status: 'passed',
      message: 'served under "all" (200 []) as under "default" (200 [])',
      details: { caller: 'none', stores: ['default', 'all'] },
    })
    // The admitted caller's valid request under the configured store code, its placeholder call under the second.
    const restricted = storeCodeCheck.probes(findRow('GET', '/V1/modules')!, FULL)
    expect(restricted.sequence?.witness).toBe('admin')
    expect(restricted.calls.map((c) => `${c.request.caller}@${c.request.store}`)).toEqual(['admin@second'])
    // A call that revokes the caller's tokens: the admin's placeholder calls under both (no customer token spent
    // twice).
    const revoke = storeCodeCheck.probes(findRow('POST', '/V1/integration/customer/revoke-customer-token')!, FULL)
    expect(revoke.sequence).toBeUndefined()
    expect(revoke.calls.map((c) => `${c.request.caller}@${c.request.store}`)).toEqual(['admin@first', 'admin@second'])
  })

  it('fails an endpoint served under the second store code as under an unknown one, or not at all', () => {
    const unknown = reply(400, { message: 'Specified request cannot be processed.' }, { unknownStore: true })
    const v = storeCodeOf('GET', '/V1/directory/currency', OK, unknown)
    expect(v.status).toBe('failed')
    expect(v.message).toMatch(/answered as for an unknown store code \(400 "Specified request cannot be processed\."\)/)
    expect(storeCodeOf('GET', '/V1/directory/currency', OK, NO_ROUTE).message).toMatch(
      /^under store code "all" the endpoint answered like the target's no-route answer/,
    )
    // The same answer under both is no sign of an unknown store code.
    expect(storeCodeOf('GET', '/V1/directory/currency', unknown, unknown).status).toBe('passed')
  })

  it('leaves an endpoint whose route is missing, or that answers a body that is not JSON, to the route check', () => {
    expect(storeCodeOf('GET', '/V1/modules', NO_ROUTE, NO_ROUTE)).toMatchObject({
      status: 'skipped',
      reason: 'route-missing',
    })
    for (const broken of [
      reply(200, undefined, { text: '<html>', json: false }),
      reply(200, undefined, { text: '', json: false }),
    ]) {
      const v = storeCodeOf('GET', '/V1/modules', broken, OK)
      expect(v).toMatchObject({ status: 'skipped', reason: 'unusable-answer' })
      expect(v.message).toMatch(
        /^not judged: under "default" the endpoint gave (a body that is not JSON|an empty body) .*see the route check/,
      )
    }
    expect(storeCodeOf('GET', '/V1/modules', OK, undefined)).toMatchObject({ status: 'skipped', reason: 'timeout' })
  })

  // Found by the lint of issue 33 (a non-null assertion on the second answer): a call under the second store code that
  // was not sent — a recording without it, a caller without a token there — was "served" with no answer at all.
  it('does not judge an endpoint whose call under the second store code was not sent', () => {
    const notSent: Reply = { status: 0, unavailable: { why: 'not in the recording', reason: 'not-recorded' } }
    for (const [method, path] of [
      ['GET', '/V1/directory/currency'],
      ['GET', '/V1/modules'],
    ] as const) {
      expect(storeCodeOf(method, path, OK, notSent)).toMatchObject({
        status: 'skipped',
        reason: 'not-recorded',
        message:
          'not judged: the call under store code "all" was not sent (not in the recording), under "default" the endpoint answered 200 []',
      })
    }
  })

  // Issue 29: a server error is no rule of the spec, and the request may be the suite's own reading of a body it does
  // not table.
  it('does not judge a server error under either store code, quoting its report id', () => {
    const platform = reply(500, {
      message: 'Internal Error. Details are available in Magento log file. Report ID: webapi-6b0bb8931408b',
    })
    const first = storeCodeOf(
      'POST',
      '/V1/inventory/source-selection-algorithm-result',
      platform,
      reply(400, { message: '"%fieldName" is required.', parameters: { fieldName: 'inventoryRequest' } }),
    )
    expect(first).toMatchObject({
      status: 'skipped',
      reason: 'server-error',
      message: expect.stringMatching(
        /^not judged: under "default" the endpoint answered a server error \(500 .*Report ID: webapi-6b0bb8931408b"\).*the run lists it/,
      ),
    })
    const second = storeCodeOf(
      'GET',
      '/V1/modules',
      OK,
      reply(503, undefined, { text: 'Service Unavailable', json: false }),
    )
    expect(second).toMatchObject({
      status: 'skipped',
      reason: 'server-error',
      message: expect.stringMatching(/^not judged: under "all" the endpoint answered a "service unavailable" error/),
    })
    // The no-route answer under the second store code is judged by its status, whatever it is.
    expect(storeCodeOf('GET', '/V1/modules', OK, { ...NO_ROUTE, status: 500 }).status).toBe('failed')
  })

  it('agrees with a real 2.4.7 instance, which serves "all" like "default" (its recorded answers)', () => {
    const status = byStatus(
      new Map(observedAnswers(storeCodeCheck).map(({ row, answers }) => [rowId(row), judgeStoreCode(row, answers)])),
    )
    expect(status.failed).toEqual([])
    expect(status.skipped).toEqual([...NOT_ON_247].sort())
  })
})
