/**
 * A shop's extension operations, planned and judged without a target: whom `extensionPlan` sends what (the safety
 * rule, the run's tokens), and the spec's own route, store-code and access judges on the answers.
 */
import { describe, expect, it } from 'vitest'
import { ADMISSION } from '../spec/admission.ts'
import type { AccessClass, HttpMethod } from '../spec/types.ts'
import type { ExtensionOperation } from '../schema/extensions.ts'
import type { PlannedCall, ProbeAnswers, ProbePlan } from '../shop/probe.ts'
import type { Verdict } from '../results/verdict.ts'
import { extensionPlan, extensionRow, readingCall } from './extension-probes.ts'
import { judgeRoute } from './route.ts'
import { judgeStoreCode } from './store-code.ts'
import { judgeAccessCheck } from './access.ts'
import type { ProbeSettings } from './probe.ts'
import { answersOf, NO_ROUTE, OK, reply, UNAUTHORIZED, type Reply } from './testing-answers.ts'

const op = (method: HttpMethod, path: string, declaredAccess?: AccessClass): ExtensionOperation => ({
  method,
  path,
  writes: method !== 'GET',
  origin: 'extension',
  ...(declaredAccess !== undefined
    ? { declaredAccess }
    : { accessUnknown: 'the schema was read from one document without caller views (a file or a URL)' }),
})
const SETTINGS: ProbeSettings = { readOnly: false, customer: { reads: true, writes: true } }
const READ_ONLY: ProbeSettings = { readOnly: true, customer: { reads: true, writes: false } }
const plan = (o: ExtensionOperation, settings = SETTINGS, probeWrites = false) =>
  extensionPlan(extensionRow(o), settings, probeWrites)
const isReading = (c: PlannedCall) => c.call.path === readingCall(false).call.path
const sent = (p: ProbePlan) => p.calls.filter((c) => !isReading(c)).map((c) => `${c.request.caller}@${c.request.store}`)

/**
 * A target that routes before it checks access, as the platform does: its answer to the reading is the no-route one.
 */
const ROUTES_FIRST = NO_ROUTE
/** Answers for a plan's calls; the no-route and unknown-store readings are the replies'. */
function answered(
  p: ProbePlan,
  answer: (c: PlannedCall) => Reply | undefined,
  reading: Reply = ROUTES_FIRST,
): ProbeAnswers {
  return answersOf(p, (c) => (isReading(c) ? reading : answer(c)))
}
/** The answers a target gives that behaves exactly as the class says. */
const asDeclared = (cls: AccessClass) => (c: PlannedCall) =>
  c.request.caller !== 'limited admin' && ADMISSION[cls][c.request.caller] === 'refuse' ? UNAUTHORIZED : OK
const judge = (o: ExtensionOperation, answers: ProbeAnswers): Verdict[] => {
  const row = extensionRow(o)
  return [judgeRoute(row, answers), judgeStoreCode(row, answers), judgeAccessCheck(row, answers)]
}
const statuses = (verdicts: Verdict[]) => verdicts.map((v) => v.status)

describe('extensionPlan', () => {
  it('sends a read to every caller its class states something for, and tries the second store code with the admitted one', () => {
    const read = op('GET', '/V1/ext/orders/:id', 'admin')
    expect(sent(plan(read))).toEqual(['none@first', 'malformed@first', 'customer@first', 'admin@first', 'admin@second'])
    expect(plan(read).calls[0]).toEqual({
      request: { caller: 'none', store: 'first' },
      call: { method: 'GET', path: '/V1/ext/orders/999999', refusalExpected: true },
    })
    expect(sent(plan(op('GET', '/V1/ext/me', 'self')))).toEqual([
      'none@first',
      'malformed@first',
      'customer@first',
      'admin@first',
      'customer@second',
    ])
    expect(sent(plan(op('GET', '/V1/ext/hours', 'anon')))).toEqual(['none@first', 'none@second'])
    // The target reading comes last, once per session whatever the operation.
    expect(plan(read).calls.at(-1)).toEqual(readingCall(false))
  })

  it('sends a write only to callers its class must refuse, with `{}`, and says whom it spared', () => {
    const write = plan(op('PUT', '/V1/ext/products/:sku', 'admin'))
    expect(sent(write)).toEqual(['none@first', 'malformed@first', 'customer@first', 'none@second'])
    expect(write.calls[0]!.call).toMatchObject({ path: '/V1/ext/products/conformance-probe-sku', body: {} })
    expect(write.withheld).toEqual([
      {
        caller: 'admin',
        why: expect.stringMatching(/only to callers its declared class must refuse \(--extensions-probe-writes/),
      },
    ])
    expect(sent(plan(op('DELETE', '/V1/ext/x/:code', 'self')))).toEqual([
      'none@first',
      'malformed@first',
      'none@second',
    ])
    expect(plan(op('DELETE', '/V1/ext/x', 'self')).calls[0]?.call.body).toBeUndefined()
    const anon = plan(op('POST', '/V1/ext/carts', 'anon'))
    expect(sent(anon)).toEqual([])
    expect(anon.withheld).toEqual([{ caller: 'none', why: expect.any(String) }])
  })

  it('sends a write to admitted callers only when asked, and no write at all in read-only mode', () => {
    expect(sent(plan(op('POST', '/V1/ext/carts', 'anon'), SETTINGS, true))).toEqual(['none@first', 'none@second'])
    expect(sent(plan(op('PUT', '/V1/ext/x', 'admin'), SETTINGS, true))).toEqual([
      'none@first',
      'malformed@first',
      'customer@first',
      'admin@first',
      'admin@second',
    ])
    const readOnly = plan(op('PUT', '/V1/ext/x', 'admin'), READ_ONLY, true)
    expect(sent(readOnly)).toEqual([])
    expect(readOnly.withheld!.map((w) => w.why)).toEqual(Array(4).fill('read-only mode sends no extension write'))
    expect(sent(plan(op('GET', '/V1/ext/x', 'admin'), READ_ONLY))).toHaveLength(5)
    // The reading is a GET then.
    expect(readOnly.calls.at(-1)!.call.method).toBe('GET')
  })

  it('never sends a write to a caller its class admits unless asked, for any class and method', () => {
    for (const cls of ['admin', 'self', 'anon', undefined] as const) {
      for (const method of ['POST', 'PUT', 'DELETE'] as const) {
        for (const settings of [SETTINGS, READ_ONLY]) {
          const p = plan(op(method, '/V1/ext/x', cls), settings)
          if (settings.readOnly) expect(sent(p)).toEqual([])
          for (const c of p.calls.filter((c) => !isReading(c)))
            expect(
              cls === undefined || c.request.caller === 'limited admin' ? 'accept' : ADMISSION[cls][c.request.caller],
              `${cls} ${method} ${c.request.caller}`,
            ).toBe('refuse')
        }
      }
    }
  })

  it('without a declared class, reads as the admin only and writes not at all', () => {
    expect(sent(plan(op('GET', '/V1/ext/x')))).toEqual(['admin@first', 'admin@second'])
    expect(sent(plan(op('POST', '/V1/ext/x')))).toEqual([])
  })

  it('sends nothing as a caller the run has no token for, and tries the store code with the last one sent', () => {
    const noCustomer: ProbeSettings = { readOnly: true, customer: { reads: false, writes: false } }
    const self = plan(op('GET', '/V1/ext/me', 'self'), noCustomer)
    expect(sent(self)).toEqual(['none@first', 'malformed@first', 'admin@first', 'admin@second'])
    expect(self.withheld).toEqual([{ caller: 'customer', why: 'no customer token in this run' }])
  })
})

describe('the judges, on an extension operation', () => {
  it('pass an operation that behaves as its class says, under both store codes', () => {
    for (const cls of ['admin', 'self', 'anon'] as const) {
      const read = op('GET', '/V1/ext/x', cls)
      expect(statuses(judge(read, answered(plan(read), asDeclared(cls)))), cls).toEqual(['passed', 'passed', 'passed'])
    }
  })

  it("fail access where a caller the class refuses is let through, with the spec's words for the class", () => {
    const read = op('GET', '/V1/ext/audit', 'admin')
    const v = judgeAccessCheck(
      extensionRow(read),
      answered(plan(read), () => OK),
    )
    expect(v).toMatchObject({
      status: 'failed',
      details: { basis: "the shop's schema declares GET /V1/ext/audit admin" },
    })
    expect(v.message).toBe(
      'declared admin: no token let through (200 []) where the class says refuse; malformed token let through (200 []) where the class says refuse; customer token let through (200 []) where the class says refuse',
    )
    expect(v.rules![0]?.specWords).toContain('An unmarked endpoint requires an admin token')
    expect(v.exchanges).toHaveLength(4)
    // A write, sent only to the callers its class refuses (never to the admin): one of them let through is found all
    // the same.
    const write = op('PUT', '/V1/ext/maintenance-mode', 'admin')
    const w = judgeAccessCheck(
      extensionRow(write),
      answered(plan(write), (c) => (c.request.caller === 'none' ? OK : UNAUTHORIZED)),
    )
    expect(w).toMatchObject({
      status: 'failed',
      message: expect.stringMatching(/^declared admin: no token let through \(200 \[\]\) where the class says refuse$/),
    })
    expect(w.exchanges).toHaveLength(3)
  })

  it('judge a write from the refusals alone: served, under the second store code too, refused as declared', () => {
    const write = op('POST', '/V1/ext/orders/:id/void', 'admin')
    const verdicts = judge(
      write,
      answered(plan(write), () => UNAUTHORIZED),
    )
    expect(statuses(verdicts)).toEqual(['passed', 'passed', 'passed'])
    expect(verdicts[0]!.message).toContain('(no token) answered 401')
    expect(verdicts[0]!.message).toContain('a refusal, which is not the no-route answer')
    // The reading's exchange is evidence of a refusal read as "served".
    expect(verdicts[0]!.exchanges.map((e) => e.request.url)).toEqual([
      'http://shop.test/rest/default/V1/ext/orders/999999/void',
      'http://shop.test/rest/default/V1/shop-conformance-no-such-extension',
    ])
    expect(verdicts[2]!.message).toMatch(
      /^declared admin: no token refused \(401\), malformed token refused \(401\), customer token refused \(401\); not sent to admin token: a write is sent only/,
    )
  })

  it('do not take a refusal for a route on a target that refuses paths that cannot exist too', () => {
    const write = op('POST', '/V1/ext/orders/:id/void', 'admin')
    const verdicts = judge(
      write,
      answered(plan(write), () => UNAUTHORIZED, UNAUTHORIZED),
    )
    expect(statuses(verdicts)).toEqual(['skipped', 'skipped', 'passed'])
    expect(verdicts[0]!.message).toMatch(
      /this target refuses a path that cannot exist too, so a refusal does not show the operation is served/,
    )
    // A read's admitted caller shows the route by any answer but the no-route one.
    const read = op('GET', '/V1/ext/x', 'admin')
    expect(statuses(judge(read, answered(plan(read), asDeclared('admin'), UNAUTHORIZED)))).toEqual([
      'passed',
      'passed',
      'passed',
    ])
  })

  it('fail the route on the no-route answer or a body that is not JSON; not judge it on a server error or no answer', () => {
    const read = op('GET', '/V1/ext/x', 'admin')
    const row = extensionRow(read)
    const route = (answer: Reply | undefined) =>
      judgeRoute(
        row,
        answered(plan(read), (c) => (c.request.caller === 'admin' ? answer : UNAUTHORIZED)),
      )
    expect(route(NO_ROUTE)).toMatchObject({
      status: 'failed',
      message: expect.stringMatching(/no-route answer .*: the operation its schema declares is not served/),
    })
    // A server error to made-up values is no failure of the shop's own operation: the real 2.4.7-p7 shop's answers.
    expect(
      route(
        reply(500, undefined, {
          text: 'An error has happened during application run. See exception log for details.\n',
          json: false,
        }),
      ),
    ).toMatchObject({
      status: 'skipped',
      message: expect.stringMatching(
        /^not judged: GET \/V1\/ext\/x \(admin token\) answered a server error \(500 .*\) to values the suite made up \(placeholders in the path/s,
      ),
    })
    expect(
      route(
        reply(500, {
          message: 'Internal Error. Details are available in Magento log file. Report ID: webapi-6b084133dea66',
        }),
      ).status,
    ).toBe('skipped')
    expect(route(reply(200, undefined, { text: '<html>', json: false })).message).toMatch(/not JSON/)
    // No answer judges nothing: a slow shop is not a failing one.
    expect(route(undefined)).toMatchObject({
      status: 'skipped',
      message: expect.stringMatching(/^not judged: no answer from GET \/V1\/ext\/x \(admin token\)/),
    })
    // Access is then not judged: the admitted caller's answer says nothing about access.
    expect(
      judgeAccessCheck(
        row,
        answered(plan(read), (c) =>
          c.request.caller === 'admin' ? reply(500, undefined, { text: '', json: false }) : UNAUTHORIZED,
        ),
      ).status,
    ).toBe('skipped')
    expect(
      judgeAccessCheck(
        row,
        answered(plan(read), () => NO_ROUTE),
      ).message,
    ).toMatch(/no-route to every caller \(see the extension-route check\)/)
  })

  it('fail the store code on the no-route or unknown-store answer under the second one only', () => {
    const read = op('GET', '/V1/ext/x', 'anon')
    const row = extensionRow(read)
    expect(
      judgeStoreCode(
        row,
        answered(plan(read), (c) => (c.request.store === 'second' ? NO_ROUTE : OK)),
      ).status,
    ).toBe('failed')
    expect(
      judgeStoreCode(
        row,
        answered(plan(read), (c) => (c.request.store === 'second' ? reply(400, {}, { unknownStore: true }) : OK)),
      ).message,
    ).toMatch(/as for an unknown store code/)
    expect(
      judgeStoreCode(
        row,
        answered(plan(read), (c) => (c.request.store === 'second' ? OK : NO_ROUTE)),
      ).status,
    ).toBe('skipped')
  })

  it('leave unjudged, and say why, what was not sent or cannot be read', () => {
    const anonWrite = op('POST', '/V1/ext/carts', 'anon')
    const none = judge(
      anonWrite,
      answered(plan(anonWrite), () => OK),
    )
    expect(statuses(none)).toEqual(['skipped', 'skipped', 'skipped'])
    expect(none.map((v) => v.reason)).toEqual(['write-withheld', 'write-withheld', 'write-withheld'])
    expect(none[0]!.message).toMatch(/^not sent: a write is sent only to callers its declared class must refuse/)
    const unknown = op('GET', '/V1/ext/x')
    expect(
      statuses(
        judge(
          unknown,
          answered(plan(unknown), () => OK),
        ),
      ),
    ).toEqual(['passed', 'passed', 'skipped'])
    expect(
      judgeAccessCheck(
        extensionRow(unknown),
        answered(plan(unknown), () => OK),
      ).message,
    ).toMatch(/not judged: the schema was read from one document without caller views/)
    // A caller the class refuses gets a 404 where the admin gets a success for the same request: the shop hides the
    // resource from it, a refusal. Where the admin got no success either, it may be about the request's data: not
    // judged.
    const read = op('GET', '/V1/ext/x', 'admin')
    const notFound = reply(404, { message: 'x' })
    expect(
      judgeAccessCheck(
        extensionRow(read),
        answered(plan(read), (c) => (c.request.caller === 'customer' ? notFound : asDeclared('admin')(c))),
      ).status,
    ).toBe('passed')
    const v = judgeAccessCheck(
      extensionRow(read),
      answered(plan(read), (c) =>
        c.request.caller === 'customer' || c.request.caller === 'admin' ? notFound : asDeclared('admin')(c),
      ),
    )
    expect(v).toMatchObject({
      status: 'skipped',
      message: expect.stringMatching(
        /^not fully judged: the caller the spec admits \(admin token\) got no success for the same request \(404 .*\), so customer token answered 404/,
      ),
    })
  })

  it('carry evidence of every call they read', () => {
    const read = op('GET', '/V1/ext/x', 'self')
    const [route, store, access] = judge(read, answered(plan(read), asDeclared('self')))
    const at = (v: Verdict) => v.exchanges.map((e) => new URL(e.request.url).pathname.split('/')[2])
    expect(route!.exchanges).toHaveLength(1)
    expect(at(store!)).toEqual(['default', 'all'])
    expect(access!.exchanges).toHaveLength(4)
  })
})
