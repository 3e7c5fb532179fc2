import { describe, expect, it } from 'vitest'
import { ADMISSION, type AccessCaller } from '../spec/admission.ts'
import type { AccessClass, HttpMethod } from '../spec/types.ts'
import type { ExtensionOperation } from './extensions.ts'
import { judgeAccess, judgeExtension, judgeRoute, judgeStoreCode, probesFor } from './judge.ts'
import type { ExtensionProbe, ProbeResult } from './judge.ts'

const op = (method: HttpMethod, path: string, declaredAccess?: AccessClass): ExtensionOperation => ({
  method,
  path,
  writes: method !== 'GET',
  origin: 'extension',
  ...(declaredAccess !== undefined ? { declaredAccess } : { accessUnknown: 'the schema was read from one document without caller views (a file or a URL)' }),
})
const SAFE = { readOnly: false, probeWrites: false }
/** A target that routes before it checks access, as the platform does. */
const ROUTES_FIRST = { refusalShowsRoute: true }
const sent = (plan: { probes: ExtensionProbe[] }) => plan.probes.map((p) => `${p.caller}@${p.store}`)

const NO_ROUTE = { status: 404, json: true, text: '{"message":"Request does not match any route."}' }
const UNAUTHORIZED = { status: 401, json: true, text: '{"message":"The consumer isn\'t authorized to access %resources."}' }
const OK = { status: 200, json: true, text: '[]' }

/** Answers for a plan's probes: `answer(probe)` decides each; the no-route and unknown-store readings follow the answer. */
function answered(plan: { probes: ExtensionProbe[] }, answer: (p: ExtensionProbe) => { status: number; json: boolean; text: string } | undefined, unknownStore = false): ProbeResult[] {
  return plan.probes.map((probe) => {
    const a = answer(probe)
    return { probe, ...(a !== undefined ? { answer: a } : {}), quoted: a === undefined ? 'no answer (timeout)' : `${a.status} ${a.text}`, noRoute: a === NO_ROUTE, unknownStore: unknownStore && probe.store === 'second' }
  })
}

/** The answers a target gives that behaves exactly as the class says. */
const asDeclared = (cls: AccessClass) => (p: ExtensionProbe) => (ADMISSION[cls][p.caller] === 'refuse' ? UNAUTHORIZED : OK)

describe('probesFor', () => {
  it('sends a read to every caller its class states something for, and tries the second store code with the admitted one', () => {
    const read = op('GET', '/V1/ext/orders/:id', 'admin')
    expect(sent(probesFor(read, SAFE))).toEqual(['none@configured', 'malformed@configured', 'customer@configured', 'admin@configured', 'admin@second'])
    expect(probesFor(read, SAFE).probes[0]).toEqual({ caller: 'none', store: 'configured', method: 'GET', path: '/V1/ext/orders/999999' })
    expect(sent(probesFor(op('GET', '/V1/ext/me', 'self'), SAFE))).toEqual(['none@configured', 'malformed@configured', 'customer@configured', 'admin@configured', 'customer@second'])
    expect(sent(probesFor(op('GET', '/V1/ext/hours', 'anon'), SAFE))).toEqual(['none@configured', 'none@second'])
  })

  it('sends a write only to callers its class must refuse, with `{}`, and says whom it spared', () => {
    const write = probesFor(op('PUT', '/V1/ext/products/:sku', 'admin'), SAFE)
    expect(sent(write)).toEqual(['none@configured', 'malformed@configured', 'customer@configured', 'none@second'])
    expect(write.probes[0]).toMatchObject({ path: '/V1/ext/products/conformance-probe-sku', body: {} })
    expect(write.withheld).toEqual([{ caller: 'admin', why: expect.stringMatching(/only to callers its declared class must refuse \(--extensions-probe-writes/) }])
    expect(sent(probesFor(op('DELETE', '/V1/ext/x/:code', 'self'), SAFE))).toEqual(['none@configured', 'malformed@configured', 'none@second'])
    expect(probesFor(op('DELETE', '/V1/ext/x', 'self'), SAFE).probes[0]?.body).toBeUndefined()
    const anon = probesFor(op('POST', '/V1/ext/carts', 'anon'), SAFE)
    expect(anon).toEqual({ probes: [], withheld: [{ caller: 'none', why: expect.any(String) }] })
  })

  it('sends a write to admitted callers only when asked, and no write at all in read-only mode', () => {
    expect(sent(probesFor(op('POST', '/V1/ext/carts', 'anon'), { readOnly: false, probeWrites: true }))).toEqual(['none@configured', 'none@second'])
    expect(sent(probesFor(op('PUT', '/V1/ext/x', 'admin'), { readOnly: false, probeWrites: true }))).toEqual(['none@configured', 'malformed@configured', 'customer@configured', 'admin@configured', 'admin@second'])
    const readOnly = probesFor(op('PUT', '/V1/ext/x', 'admin'), { readOnly: true, probeWrites: true })
    expect(readOnly.probes).toEqual([])
    expect(readOnly.withheld.map((w) => w.why)).toEqual(Array(4).fill('read-only mode sends no extension write'))
    expect(sent(probesFor(op('GET', '/V1/ext/x', 'admin'), { readOnly: true, probeWrites: false }))).toHaveLength(5)
  })

  it('never sends a write to a caller its class admits unless asked, for any class and method', () => {
    for (const cls of ['admin', 'self', 'anon', undefined] as const) {
      for (const method of ['POST', 'PUT', 'DELETE'] as const) {
        for (const readOnly of [false, true]) {
          const plan = probesFor(op(method, '/V1/ext/x', cls), { readOnly, probeWrites: false })
          if (readOnly) expect(plan.probes).toEqual([])
          for (const p of plan.probes) expect(cls === undefined ? 'accept' : ADMISSION[cls][p.caller], `${cls} ${method} ${p.caller}`).toBe('refuse')
        }
      }
    }
  })

  it('without a declared class, reads as the admin only and writes not at all', () => {
    expect(sent(probesFor(op('GET', '/V1/ext/x'), SAFE))).toEqual(['admin@configured', 'admin@second'])
    expect(probesFor(op('POST', '/V1/ext/x'), SAFE).probes).toEqual([])
  })
})

describe('the judges', () => {
  it('pass an operation that behaves as its class says, under both store codes', () => {
    for (const cls of ['admin', 'self', 'anon'] as const) {
      const read = op('GET', '/V1/ext/x', cls)
      const plan = probesFor(read, SAFE)
      expect(judgeExtension(read, plan, answered(plan, asDeclared(cls)), ROUTES_FIRST).map((v) => v.status), cls).toEqual(['passed', 'passed', 'passed'])
    }
  })

  it('fail access where a caller the class refuses is let through, with the spec\'s words for the class', () => {
    const read = op('GET', '/V1/ext/audit', 'admin')
    const plan = probesFor(read, SAFE)
    const v = judgeAccess(read, plan, answered(plan, () => OK))
    expect(v).toMatchObject({ status: 'failed', basis: "the shop's schema declares GET /V1/ext/audit admin" })
    expect(v.message).toBe('declared admin: no token let through (200 []) where the class says refuse; malformed token let through (200 []) where the class says refuse; customer token let through (200 []) where the class says refuse')
    expect(v.rules[0]?.specWords).toContain('An unmarked endpoint requires an admin token')
    expect(v.evidence).toHaveLength(4)
  })

  it('judge a write from the refusals alone: served, under the second store code too, refused as declared', () => {
    const write = op('POST', '/V1/ext/orders/:id/void', 'admin')
    const plan = probesFor(write, SAFE)
    const verdicts = judgeExtension(write, plan, answered(plan, () => UNAUTHORIZED), ROUTES_FIRST)
    expect(verdicts.map((v) => [v.check, v.status])).toEqual([['route', 'passed'], ['store-code', 'passed'], ['access', 'passed']])
    expect(verdicts[0]!.message).toContain('(no token) answered 401')
    expect(verdicts[0]!.message).toContain('a refusal, which is not the no-route answer')
    expect(verdicts[2]!.message).toMatch(/^declared admin: no token refused \(401\), malformed token refused \(401\), customer token refused \(401\); not sent to admin token: a write is sent only/)
  })

  it('do not take a refusal for a route on a target that refuses paths that cannot exist too', () => {
    const write = op('POST', '/V1/ext/orders/:id/void', 'admin')
    const plan = probesFor(write, SAFE)
    const verdicts = judgeExtension(write, plan, answered(plan, () => UNAUTHORIZED), { refusalShowsRoute: false })
    expect(verdicts.map((v) => v.status)).toEqual(['not judged', 'not judged', 'passed'])
    expect(verdicts[0]!.message).toMatch(/this target refuses a path that cannot exist too, so a refusal does not show the operation is served/)
    // A read's admitted caller shows the route by any answer but the no-route one.
    const read = op('GET', '/V1/ext/x', 'admin')
    const readPlan = probesFor(read, SAFE)
    expect(judgeExtension(read, readPlan, answered(readPlan, asDeclared('admin')), { refusalShowsRoute: false }).map((v) => v.status)).toEqual(['passed', 'passed', 'passed'])
  })

  it('fail the route on the no-route answer or a body that is not JSON; not judge it on a server error or no answer', () => {
    const read = op('GET', '/V1/ext/x', 'admin')
    const plan = probesFor(read, SAFE)
    const route = (answer: { status: number; json: boolean; text: string } | undefined) => judgeRoute(read, plan, answered(plan, (p) => (p.caller === 'admin' ? answer : UNAUTHORIZED)), ROUTES_FIRST)
    expect(route(NO_ROUTE)).toMatchObject({ status: 'failed', message: expect.stringMatching(/no-route answer .*: the operation its schema declares is not served/) })
    // A server error to made-up values is no failure of the shop's own operation: the real 2.4.7-p7 shop's answers.
    expect(route({ status: 500, json: false, text: 'An error has happened during application run. See exception log for details.\n' })).toMatchObject({
      status: 'not judged',
      message: expect.stringMatching(/^not judged: GET \/V1\/ext\/x \(admin token\) answered a server error \(500 .*\) to values the suite made up \(placeholders in the path/s),
    })
    expect(route({ status: 500, json: true, text: '{"message":"Internal Error. Details are available in Magento log file. Report ID: webapi-6b084133dea66"}' }).status).toBe('not judged')
    expect(route({ status: 200, json: false, text: '<html>' }).message).toMatch(/not JSON/)
    // No answer judges nothing: a slow shop is not a failing one.
    expect(route(undefined)).toMatchObject({ status: 'not judged', message: expect.stringMatching(/^not judged: no answer from GET \/V1\/ext\/x \(admin token\)/) })
    // Access is then not judged: the admitted caller's answer says nothing about access.
    expect(judgeAccess(read, plan, answered(plan, (p) => (p.caller === 'admin' ? { status: 500, json: false, text: '' } : UNAUTHORIZED))).status).toBe('not judged')
    expect(judgeAccess(read, plan, answered(plan, () => NO_ROUTE)).message).toMatch(/no-route to every caller \(see the route verdict\)/)
  })

  it('fail the store code on the no-route or unknown-store answer under the second one only', () => {
    const read = op('GET', '/V1/ext/x', 'anon')
    const plan = probesFor(read, SAFE)
    expect(judgeStoreCode(read, plan, answered(plan, (p) => (p.store === 'second' ? NO_ROUTE : OK)), ROUTES_FIRST).status).toBe('failed')
    expect(judgeStoreCode(read, plan, answered(plan, (p) => (p.store === 'second' ? { status: 400, json: true, text: '{}' } : OK), true), ROUTES_FIRST).message).toMatch(/as for an unknown store code/)
    expect(judgeStoreCode(read, plan, answered(plan, (p) => (p.store === 'second' ? OK : NO_ROUTE)), ROUTES_FIRST).status).toBe('not judged')
  })

  it('leave unjudged, and say why, what was not sent or cannot be read', () => {
    const anonWrite = op('POST', '/V1/ext/carts', 'anon')
    const none = judgeExtension(anonWrite, probesFor(anonWrite, SAFE), [], ROUTES_FIRST)
    expect(none.map((v) => v.status)).toEqual(['not judged', 'not judged', 'not judged'])
    expect(none[0]!.message).toMatch(/^not sent: a write is sent only to callers its declared class must refuse/)
    const unknown = op('GET', '/V1/ext/x')
    const plan = probesFor(unknown, SAFE)
    expect(judgeExtension(unknown, plan, answered(plan, () => OK), ROUTES_FIRST).map((v) => v.status)).toEqual(['passed', 'passed', 'not judged'])
    expect(judgeAccess(unknown, plan, []).message).toMatch(/not judged: the schema was read from one document without caller views/)
    // A caller the class refuses gets a 404 where the admin gets a success for the same request: the shop hides the
    // resource from it, a refusal. Where the admin got no success either, it may be about the request's data: not judged.
    const read = op('GET', '/V1/ext/x', 'admin')
    const readPlan = probesFor(read, SAFE)
    const notFound = { status: 404, json: true, text: '{"message":"x"}' }
    expect(judgeAccess(read, readPlan, answered(readPlan, (p) => (p.caller === 'customer' ? notFound : asDeclared('admin')(p)))).status).toBe('passed')
    const v = judgeAccess(read, readPlan, answered(readPlan, (p) => (p.caller === 'customer' || p.caller === 'admin' ? notFound : asDeclared('admin')(p))))
    expect(v).toMatchObject({ status: 'not judged', message: expect.stringMatching(/^not fully judged: the caller the spec admits \(admin token\) got no success for the same request \(404 .*\), so customer token answered 404/) })
  })

  it('carry evidence of every probe they read', () => {
    const read = op('GET', '/V1/ext/x', 'self')
    const plan = probesFor(read, SAFE)
    const results = answered(plan, asDeclared('self'))
    const [route, store, access] = judgeExtension(read, plan, results, ROUTES_FIRST)
    expect(route!.evidence.map((r) => r.probe.caller)).toEqual(['customer'])
    expect(store!.evidence.map((r) => `${r.probe.caller}@${r.probe.store}`)).toEqual(['customer@configured', 'customer@second'])
    expect(access!.evidence.map((r) => r.probe.caller as AccessCaller)).toEqual(['none', 'malformed', 'customer', 'admin'])
  })
})
