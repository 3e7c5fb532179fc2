/**
 * The body-keys check's rows, fault switches and judgements on the answers it is handed: no target. Its runs against
 * the reference target, clean and under a fault switch: body-keys.test.ts.
 */
import { describe, expect, it } from 'vitest'
import { FAULTS } from '../../reference-target/index.ts'
import { findRow } from '../spec/catalog/index.ts'
import { bodyKeysCheck } from './body-keys.ts'
import {
  bodyKeysRules,
  combine,
  judgeDocumentedAnswer,
  judgeDocumentedRefusal,
  judgePathWins,
  judgeRefusal,
  judgeUnchanged,
} from './body-keys-judgements.ts'
import { scenarioOf } from '../setup/families/index.ts'
import type { Outcome } from '../shop/request.ts'
import { faultsBreaking, rowsJudgedBy } from './testing.ts'
import { endpointText } from '../spec/endpoint-id.ts'

/** An answer as the client hands it over (`undefined`: none came within the deadline). */
const outcome = (status: number | undefined, body: unknown = {}): Pick<Outcome, 'answer' | 'failure'> =>
  status === undefined
    ? { failure: { kind: 'timeout', message: 'timed out after 10000 ms' } }
    : { answer: { status, body, json: true, text: JSON.stringify(body), headers: {} } }

const BODY_ROWS = rowsJudgedBy(bodyKeysCheck)

describe('body-keys check', () => {
  it('applies to exactly the endpoints whose body the spec gives, each with a scenario', () => {
    expect(BODY_ROWS.map((r) => endpointText(r)).sort()).toEqual([
      'POST /V1/carts/mine/estimate-shipping-methods',
      'POST /V1/creditmemo',
      'POST /V1/eav/attribute-sets',
      'POST /V1/guest-carts/:cartId/billing-address',
      'POST /V1/invoice/:invoiceId/refund',
      'POST /V1/order/:orderId/refund',
      'PUT /V1/carts/:cartId/order',
      'PUT /V1/eav/attribute-sets/:attributeSetId',
      'PUT /V1/orders/:parent_id',
    ])
    for (const row of BODY_ROWS) expect(scenarioOf(row), endpointText(row)).toBeDefined()
    expect(bodyKeysCheck.appliesTo(findRow('GET', '/V1/modules')!)).toMatch(/^not shown: /)
  })

  it('has a fault switch for each rule, and one for the path rule the spec does not state', () => {
    expect([...faultsBreaking('body-keys')].sort()).toEqual([
      'body-key-renamed',
      'body-overrides-path',
      'required-key-optional',
    ])
    expect(faultsBreaking('body-keys').filter((f) => FAULTS[f].verdict === 'warning')).toEqual(['body-overrides-path'])
  })

  it('reads any answer but a success as "not accepted" (statuses and error bodies are not shown by the spec): a 5xx or another field named is a warning; no answer is not judged', () => {
    expect(judgeRefusal(outcome(200, 12), 'entity')).toMatchObject({ status: 'failed', text: 'was accepted (200 12)' })
    expect(
      judgeRefusal(
        outcome(400, {
          message: '"%fieldName" is required. Enter and try again.',
          parameters: { fieldName: 'entity' },
        }),
        'entity',
      ),
    ).toEqual({ status: 'passed', text: 'refused, naming it (400 “"entity" is required. Enter and try again.”)' })
    expect(judgeRefusal(outcome(400, { message: 'x', parameters: { fieldName: 'sku' } }), 'entity')).toMatchObject({
      status: 'passed',
      warning: 'the refusal names another field (sku), not "entity"',
    })
    expect(judgeRefusal(outcome(500, { message: 'Internal Error.' }), 'entity')).toMatchObject({
      status: 'passed',
      warning: expect.stringMatching(/^answered 500 "Internal Error\." rather than refusing the input with a 4xx/),
    })
    expect(judgeRefusal(outcome(undefined), 'entity')).toMatchObject({
      status: 'skipped',
      reason: 'timeout',
      text: expect.stringMatching(
        /^not judged: got no answer \(timed out after 10000 ms: a slow answer is not judged as a failing one \(--timeout-ms/,
      ),
    })
  })

  it('never passes with a rule that applies but was not judged; a rule that does not apply does not count', () => {
    const accepted = { status: 'passed' as const, text: 'documented keys accepted' }
    const unjudged = { status: 'skipped' as const, text: 'missing "entity" not judged: set-up failed' }
    const notApplicable = {
      status: 'skipped' as const,
      text: 'missing "cartId" not judged: the token supplies it',
      applies: false as const,
    }
    expect(combine([accepted, notApplicable], [], []).status).toBe('passed')
    const v = combine([accepted, unjudged], [], [])
    expect(v.status).toBe('skipped')
    expect(v.message).toMatch(/^missing "entity" not judged: set-up failed; documented keys accepted$/)
    expect(combine([accepted, unjudged, { status: 'failed', text: 'x' }], [], []).status).toBe('failed')
  })

  it('passes the documented keys accepted with the documented return type, and names the keys and the answer otherwise', () => {
    const row = findRow('PUT', '/V1/orders/:parent_id')!
    expect(judgeDocumentedAnswer(row, 'entity', outcome(200, { entity_id: 3, firstname: 'A', city: 'B' }))).toEqual({
      status: 'passed',
      text: 'documented keys (entity) accepted (200)',
    })
    expect(judgeDocumentedAnswer(row, 'entity', outcome(200, 'x'))).toMatchObject({
      status: 'failed',
      text: expect.stringMatching(
        /^documented keys \(entity\) accepted, but the answer is not OrderAddressInterface: /,
      ),
    })
    expect(judgeDocumentedAnswer(row, 'entity', outcome(400, { message: 'x' }))).toBe('refused')
    // The detail table documents the call (issue 29): a server error of the shop's fails it, whatever a call without
    // a body gets; a gateway's or an unavailable shop's is no answer.
    expect(
      judgeDocumentedAnswer(row, 'entity', outcome(500, { message: 'Internal Error. Report ID: webapi-7' })),
    ).toEqual({
      status: 'failed',
      text: 'documented keys (entity) answered a server error (500 "Internal Error. Report ID: webapi-7"), where the detail table documents the call',
    })
    expect(judgeDocumentedAnswer(row, 'entity', outcome(504, { message: 'Gateway Timeout' }))).toMatchObject({
      status: 'skipped',
      reason: 'server-error',
    })
    expect(judgeDocumentedAnswer(row, 'entity', outcome(undefined))).toMatchObject({
      status: 'skipped',
      reason: 'timeout',
    })
    // The detail table's words for the rules it judged.
    expect(bodyKeysRules(row).flatMap((r) => r.specWords)).toEqual(
      expect.arrayContaining(['`entity` (OrderAddressInterface, required)', 'OrderAddressInterface']),
    )
  })

  it("reports a refund refused for a reason of the target plainly, not as passed and not as the keys' fault", () => {
    const refused = outcome(400, { message: "We can't create creditmemo for the invoice." })
    expect(judgeDocumentedRefusal('items', refused, outcome(400, { message: 'x' }))).toMatchObject({
      status: 'skipped',
      reason: 'target-refused',
      text: expect.stringMatching(
        /^not judged: the target refused the call for a reason of its own, with or without the documented keys \(400 "We can't create creditmemo for the invoice\."/,
      ),
    })
    expect(judgeDocumentedRefusal('items', refused, outcome(200, 5)).status).toBe('failed')
    expect(judgeDocumentedRefusal('items', refused).text).toMatch(/^documented keys \(items\) refused: 400 /)
  })

  it("fails a refused call that changed the target's state anyway", () => {
    const part = { status: 'passed' as const, text: 'missing "entity" refused (400)' }
    expect(judgeUnchanged(part, { qty: 1 }, { qty: 1 })).toBe(part)
    expect(judgeUnchanged(part, { qty: 1 }, { qty: 2 })).toEqual({
      status: 'failed',
      text: 'missing "entity" refused (400), and it changed the target\'s state (before {"qty":1}, after {"qty":2})',
    })
  })

  it('warns, and does not fail, where a body value wins over the path (the spec does not say which wins), and names another rule that broke', () => {
    const conflict = { pathParam: 'parent_id', bodyKey: 'entity.parent_id' }
    expect(judgePathWins(conflict, outcome(200, {}), true)).toEqual({
      part: {
        status: 'skipped',
        text: 'path parameter :parent_id honoured over body entity.parent_id',
        applies: false,
      },
    })
    const lost = judgePathWins(conflict, outcome(200, {}), 'the order named by the path kept its address')
    expect(lost.part.applies).toBe(false)
    expect(lost.warning).toBe(
      'path parameter :parent_id not honoured over body entity.parent_id: the order named by the path kept its address (the platform lets the path win; the spec does not say which wins)',
    )
    // A refund that made no credit memo: the rule that broke is named, not the path parameter's.
    const other = judgePathWins({ pathParam: 'orderId', bodyKey: 'orderId' }, outcome(200, 7), {
      rule: 'the refund made no credit memo with the id it answered',
      text: 'it answered 7, but GET /V1/creditmemo/7 answered 404',
    })
    expect(other.warning).toMatch(
      /^the refund made no credit memo with the id it answered \(seen on the call with a contradicting body orderId\): it answered 7/,
    )
    expect(other.warning).not.toMatch(/not honoured/)
    expect(judgePathWins(conflict, outcome(400, { message: 'x' })).part.text).toMatch(
      /the call was not accepted \(400 "x"\), which the spec allows$/,
    )
  })

  it("does not judge a missing key the caller's token supplies on a mine path", () => {
    expect(scenarioOf(findRow('POST', '/V1/carts/mine/estimate-shipping-methods')!)!.tokenSupplied).toMatchObject({
      cartId: expect.stringMatching(/the cart comes from the caller's token/),
    })
  })
})
