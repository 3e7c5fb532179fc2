/**
 * The route check's judge on the answers it is handed — made up, or a real 2.4.7 instance's recorded ones, or
 * a made-up client's for the calibration: no target. Its runs against the reference target, clean and under a fault
 * switch: route.test.ts.
 */
import { describe, expect, it } from 'vitest'
import { CATALOG, rowId } from '../spec/catalog/index.ts'
import { calibrate } from '../shop/calibration.ts'
import type { TargetClient } from '../shop/client.ts'
import type { Outcome, RequestSpec } from '../shop/request.ts'
import { matchesAny } from '../shop/fingerprint.ts'
import { judgeRoute, routeCheck } from './route.ts'
import { byStatus, NOT_ON_247 } from './testing.ts'
import { answersOf, FULL, observedAnswers, OK, reply, type Reply } from './testing-answers.ts'

/**
 * The route verdict of a row whose admitted caller got `witness` (its valid request's, or the anonymous placeholder
 * call's).
 */
function routeOf(id: string, witness: Reply | undefined) {
  const row = CATALOG.find((r) => rowId(r) === id)!
  return judgeRoute(
    row,
    answersOf(routeCheck.probes(row, FULL), () => witness, { reply: () => witness }),
  )
}

describe('route check', () => {
  it('passes an answer that is not the no-route answer, a refusal of the admitted caller included (the access check fails that)', () => {
    expect(routeOf('GET /V1/modules', OK)).toMatchObject({
      status: 'passed',
      message: 'served: answered 200 [], not the no-route answer',
      details: { caller: 'admin', store: 'default', path: '/V1/modules' },
    })
    expect(routeOf('GET /V1/directory/currency', reply(401, { message: 'no' })).status).toBe('passed')
    expect(routeOf('DELETE /V1/carts/:cartId/coupons', reply(204, undefined, { text: '', json: false })).status).toBe(
      'passed',
    )
  })

  it('fails the no-route answer and a body that is not JSON', () => {
    expect(
      routeOf('GET /V1/modules', reply(404, { message: 'Request does not match any route.' }, { noRoute: true }))
        .message,
    ).toBe(
      'GET /V1/modules answered like the target\'s no-route answer (404 "Request does not match any route."): the endpoint is not served at this method and path',
    )
    expect(
      routeOf('GET /V1/modules', reply(200, undefined, { text: '<html>oops</html>', json: false })).message,
    ).toMatch(
      /answered 200 with a body that is not JSON \(text\/html: "<html>oops<\/html>"\), where the spec says payloads are JSON$/,
    )
    expect(routeOf('GET /V1/modules', reply(200, undefined, { text: '', json: false })).message).toMatch(
      /answered 200 with an empty body/,
    )
  })

  // Issue 29: "HTTP status code per error case: not shown". A real 2.4.7-p7 shop answered 500 to an option id of the
  // suite's that a child's attachment had replaced, and to a body its own schema documents: the application answered.
  it("passes a server error of the shop's application as served, quoting its report id, whatever its body", () => {
    const platform = reply(500, {
      message: 'Internal Error. Details are available in Magento log file. Report ID: webapi-6b0bb8ac94d3c',
    })
    const v = routeOf('PUT /V1/configurable-products/:sku/options/:id', platform)
    expect(v).toMatchObject({
      status: 'passed',
      message: expect.stringMatching(
        /^served: answered a server error \(500 "Internal Error\. .*Report ID: webapi-6b0bb8ac94d3c"\), not the no-route answer: .*the run lists it with its server errors$/,
      ),
    })
    expect(v.rules).toBeUndefined()
    // "Payloads are JSON" judges no server error's body: the platform's plain-text one, an HTML page, nothing at all.
    const plain = reply(500, undefined, {
      text: 'An error has happened during application run. See exception log for details.\n',
      json: false,
      headers: { 'content-type': 'text/plain;charset=UTF-8' },
    })
    for (const body of [
      plain,
      reply(500, undefined, { text: '<html>oops</html>', json: false }),
      reply(500, undefined, { text: '', json: false }),
      reply(507, { message: 'x' }),
    ]) {
      expect(routeOf('GET /V1/modules', body).status).toBe('passed')
    }
    // A long message is cut short in the quote; the report id is said all the same.
    const long = reply(500, undefined, { text: `${'x'.repeat(150)} Report ID: webapi-0123456789abc`, json: false })
    expect(routeOf('GET /V1/modules', long).message).toMatch(/, report ID webapi-0123456789abc\)/)
  })

  it('does not judge a gateway\'s, an unavailable shop\'s or a "not implemented" 5xx: no answer of the application', () => {
    for (const [status, words] of [
      [502, /a gateway error/],
      [503, /a "service unavailable" error/],
      [504, /a gateway error/],
      [501, /a "not implemented" server error/],
    ] as const) {
      const v = routeOf('GET /V1/modules', reply(status, undefined, { text: '<html>Bad Gateway</html>', json: false }))
      expect(v, String(status)).toMatchObject({
        status: 'skipped',
        reason: 'server-error',
        message: expect.stringMatching(words),
      })
      expect(v.message).toMatch(/shows neither that the endpoint is served nor that it is not/)
    }
  })

  // Issue 21: a slow or unreachable shop is not a failing one — but silence never passes either.
  it('does not judge, and never passes, an endpoint that gave no answer', () => {
    const v = routeOf('GET /V1/modules', undefined)
    expect(v).toMatchObject({ status: 'skipped', reason: 'timeout' })
    expect(v.message).toMatch(
      /^not judged: no answer from GET \/V1\/modules: timeout after 10000 ms: a slow answer is not judged as a failing one/,
    )
  })

  it('fails exactly the 7 endpoints a real 2.4.7 instance does not serve, from its recorded answers', () => {
    const verdicts = new Map(
      observedAnswers(routeCheck).map(({ row, answers }) => [rowId(row), judgeRoute(row, answers)]),
    )
    const status = byStatus(verdicts)
    expect(status.failed).toEqual([...NOT_ON_247].sort())
    expect(status.passed).toHaveLength(271)
  })

  it('fails every endpoint of a target that answers impossible paths alike: its no-route answer is the only one it gives', async () => {
    // Tokens work, but every other path gets the same 200 {}: the calibration learns that as the no-route answer.
    const answers = (spec: RequestSpec): Outcome => ({
      answer: { status: 200, headers: {}, body: {}, json: true, text: '{}' },
      exchange: { request: { method: spec.method, url: `http://shop.test${spec.path}`, headers: {} }, durationMs: 1 },
    })
    const client = {
      send: (spec: RequestSpec) => Promise.resolve(answers(spec)),
      urlFor: (spec: RequestSpec) => spec.path,
    } as unknown as TargetClient
    const calibration = await calibrate(client, 'default', 'admin-token', '/V1/directory/currency')
    expect(calibration.noRoute).toEqual([{ status: 200, key: 'body:{}' }])
    const everywhere = matchesAny({ status: 200, body: {}, text: '{}' }, '/V1/modules', calibration.noRoute)
    expect(routeOf('GET /V1/modules', { ...OK, body: {}, noRoute: everywhere }).status).toBe('failed')
  })
})
