import { afterAll, describe, expect, it } from 'vitest'
import { FAULTS, startReferenceTarget, type FaultName } from '../../reference-target/index.ts'
import { CATALOG, findRow } from '../spec/catalog/index.ts'
import type { Session } from '../shop/session.ts'
import { bodyKeysCheck, combine, judgeRefusal } from './body-keys.ts'
import type { SentCall } from './scenario-call.ts'
import { scenarioOf } from '../setup/families/index.ts'
import { byStatus, openSession, runOverCatalog } from './testing.ts'
import { endpointText } from '../spec/endpoint-id.ts'

const BODY_ROWS = CATALOG.filter((r) => bodyKeysCheck.appliesTo(r) === true)

describe('body-keys check', () => {
  const closers: (() => Promise<void>)[] = []
  afterAll(async () => {
    for (const close of closers.reverse()) await close()
  })
  async function against(faults: { name: FaultName }[] = [], env: Record<string, string> = {}): Promise<Session> {
    const target = await startReferenceTarget({ faults })
    closers.push(() => target.close())
    const s = await openSession(target, [], env)
    closers.push(() => s.close())
    return s
  }

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

  it('passes every such endpoint of the clean reference target, judging each rule', async () => {
    const s = await against()
    const verdicts = await runOverCatalog(bodyKeysCheck, s, BODY_ROWS)
    expect(byStatus(verdicts)).toMatchObject({ failed: [], skipped: [] })
    const orders = verdicts.get('PUT /V1/orders/:parent_id')!
    expect(orders.message).toMatch(/documented keys \(entity\) accepted/)
    expect(orders.message).toMatch(/missing "entity" refused, naming it \(400/)
    expect(orders.message).toMatch(/"entity" under another name \("entityRenamed"\) refused, naming it/)
    expect(orders.message).toMatch(/path parameter :parent_id honoured over body entity\.parent_id/)
    expect(verdicts.get('POST /V1/carts/mine/estimate-shipping-methods')!.message).toMatch(/missing "cartId" not judged: on a mine path the cart comes from the caller's token/)
  })

  const faults = (Object.keys(FAULTS) as FaultName[]).filter((f) => FAULTS[f].breaks === 'body-keys')
  it('has a fault switch for each rule, and one for the path rule the spec does not state', () => {
    expect([...faults].sort()).toEqual(['body-key-renamed', 'body-overrides-path', 'required-key-optional'])
    expect(faults.filter((f) => FAULTS[f].verdict === 'warning')).toEqual(['body-overrides-path'])
  })
  for (const fault of faults.filter((f) => FAULTS[f].verdict === undefined)) {
    it(`fails only the endpoint the ${fault} fault breaks`, async () => {
      const { method, path } = FAULTS[fault].defaultEndpoint
      const verdicts = await runOverCatalog(bodyKeysCheck, await against([{ name: fault }]), BODY_ROWS)
      expect(byStatus(verdicts)).toMatchObject({ failed: [endpointText({ method, path })], skipped: [] })
    })
  }

  it('warns, and does not fail, where the body-overrides-path fault lets a body value win over the path: the spec does not say which wins', async () => {
    const { method, path } = FAULTS['body-overrides-path'].defaultEndpoint
    const verdicts = await runOverCatalog(bodyKeysCheck, await against([{ name: 'body-overrides-path' }]), BODY_ROWS)
    expect(byStatus(verdicts)).toMatchObject({ failed: [], skipped: [] })
    const warned = [...verdicts].filter(([, v]) => (v.warnings ?? []).some((w) => /path parameter .* not honoured/.test(w))).map(([id]) => id)
    expect(warned).toEqual([endpointText({ method, path })])
    expect(verdicts.get(endpointText({ method, path }))!.warnings!.join('\n')).toMatch(/path parameter :parent_id not honoured over body entity\.parent_id: the order named by the path .* \(the platform lets the path win; the spec does not say which wins\)/)
  })

  it('quotes the detail table\'s words for the rules it judged', async () => {
    const v = await bodyKeysCheck.run(findRow('PUT', '/V1/orders/:parent_id')!, await against())
    expect(v.rules!.flatMap((r) => r.specWords)).toEqual(expect.arrayContaining(['`entity` (OrderAddressInterface, required)', 'OrderAddressInterface']))
  })

  it('names the rule that broke when a refund makes no credit memo, not the path parameter rule (a warning here: the workflow judges the refund)', async () => {
    const v = await bodyKeysCheck.run(findRow('POST', '/V1/order/:orderId/refund')!, await against([{ name: 'refund-no-creditmemo' }]))
    expect(v.status).not.toBe('failed')
    expect(v.warnings!.join('\n')).toMatch(/the refund made no credit memo with the id it answered \(seen on the call with a contradicting body orderId\): it answered "?\d+"?, but GET \/V1\/creditmemo\/\d+ answered 404/)
    expect(v.warnings!.join('\n')).not.toMatch(/not honoured/)
  })

  it('reports a refund refused for a reason of the target plainly, not as passed and not as the keys\' fault', async () => {
    const s = await against([], { SHOP_INVOICE_REFUND_PAYMENT_METHOD: 'checkmo' })
    const v = await bodyKeysCheck.run(findRow('POST', '/V1/invoice/:invoiceId/refund')!, s)
    expect(v.status).toBe('skipped')
    expect(v.message).toMatch(/^not judged: the target refused the call for a reason of its own, with or without the documented keys \(400 "We can't create creditmemo for the invoice\."/)
  })

  it('reads any answer but a success as "not accepted" (statuses and error bodies are not shown by the spec): a 5xx or another field named is a warning; no answer is not judged', () => {
    const sent = (status: number | undefined, body: unknown = {}) =>
      ({ outcome: status === undefined ? { failure: { kind: 'timeout', message: 'timed out after 10000 ms' } } : { answer: { status, body, json: true, text: JSON.stringify(body), headers: {} } } }) as unknown as SentCall
    expect(judgeRefusal(sent(200, 12), 'entity')).toMatchObject({ status: 'failed', text: 'was accepted (200 12)' })
    expect(judgeRefusal(sent(400, { message: '"%fieldName" is required. Enter and try again.', parameters: { fieldName: 'entity' } }), 'entity')).toEqual({ status: 'passed', text: 'refused, naming it (400 “"entity" is required. Enter and try again.”)' })
    expect(judgeRefusal(sent(400, { message: 'x', parameters: { fieldName: 'sku' } }), 'entity')).toMatchObject({ status: 'passed', warning: 'the refusal names another field (sku), not "entity"' })
    expect(judgeRefusal(sent(500, { message: 'Internal Error.' }), 'entity')).toMatchObject({ status: 'passed', warning: expect.stringMatching(/^answered 500 "Internal Error\." rather than refusing the input with a 4xx/) })
    expect(judgeRefusal(sent(undefined), 'entity')).toMatchObject({ status: 'skipped', reason: 'timeout', text: expect.stringMatching(/^not judged: got no answer \(timed out after 10000 ms: a slow answer is not judged as a failing one \(--timeout-ms/) })
  })

  it('never passes with a rule that applies but was not judged; a rule that does not apply does not count', () => {
    const accepted = { status: 'passed' as const, text: 'documented keys accepted' }
    const unjudged = { status: 'skipped' as const, text: 'missing "entity" not judged: set-up failed' }
    const notApplicable = { status: 'skipped' as const, text: 'missing "cartId" not judged: the token supplies it', applies: false as const }
    expect(combine([accepted, notApplicable], [], []).status).toBe('passed')
    const v = combine([accepted, unjudged], [], [])
    expect(v.status).toBe('skipped')
    expect(v.message).toMatch(/^missing "entity" not judged: set-up failed; documented keys accepted$/)
    expect(combine([accepted, unjudged, { status: 'failed', text: 'x' }], [], []).status).toBe('failed')
  })
})
