import { readFileSync } from 'node:fs'
import { afterAll, describe, expect, it } from 'vitest'
import { startReferenceTarget, type ReferenceTarget, type ReferenceTargetOptions } from '../../reference-target/index.ts'
import { startObservedTarget, type ObservedTarget } from '../../fixtures/observed-target/index.ts'
import { CATALOG, findRow } from '../spec/catalog/index.ts'
import type { Answer, Outcome } from '../shop/request.ts'
import type { Session } from '../shop/session.ts'
import { REVOKE_SETTLE_MS } from './revocation.ts'
import { byStatus, runOverCatalog, targetSessions } from './testing.ts'
import { readRefusal, tokensCheck } from './tokens.ts'
import { endpointText } from '../spec/endpoint-id.ts'

const ROWS = CATALOG.filter((r) => tokensCheck.appliesTo(r) === true)
const ADMIN_TOKEN = 'POST /V1/integration/admin/token'
const CUSTOMER_TOKEN = 'POST /V1/integration/customer/token'
const REVOKE = 'POST /V1/integration/customer/revoke-customer-token'

// Concurrent: each revocation waits REVOKE_SETTLE_MS between the revoke and the new token, doing nothing.
describe.concurrent('tokens check', () => {
  const sessions = targetSessions()
  afterAll(() => sessions.closeAll())
  const against = (target: ReferenceTarget | ObservedTarget, argv: string[] = []) => sessions.open(target, argv)
  const reference = (options: ReferenceTargetOptions = {}) => startReferenceTarget(options)

  it('applies to the two token endpoints and the revoke, and to no other endpoint', () => {
    expect(ROWS.map((r) => endpointText(r)).sort()).toEqual([ADMIN_TOKEN, REVOKE, CUSTOMER_TOKEN].sort())
  })

  it('passes all three on the clean reference target, showing no token it got', async () => {
    const t = await reference()
    const verdicts = await runOverCatalog(tokensCheck, await against(t), ROWS)
    expect(byStatus(verdicts)).toEqual({ passed: [ADMIN_TOKEN, REVOKE, CUSTOMER_TOKEN].sort(), failed: [], skipped: [] })
    expect(verdicts.get(ADMIN_TOKEN)!.message).toMatch(/^an unknown user name refused \(401 "The account sign-in was incorrect/)
    expect(verdicts.get(CUSTOMER_TOKEN)!.message).toMatch(/^an unknown user name refused \(401 .*\); a wrong password for the run's own customer sc\.\S+@example\.com refused \(401 /)
    expect(verdicts.get(REVOKE)!.message).toMatch(/^the revoked token was refused on GET \/V1\/customers\/me \(401 .*\); a token the customer got at once was let through GET \/V1\/customers\/me \(200\)$/)
    const written = JSON.stringify([...verdicts.values()])
    for (const token of t.issuedTokens()) expect(written).not.toContain(token)
  })

  it('fails only the revoke when it revokes nothing (revoke-no-op)', async () => {
    const verdicts = await runOverCatalog(tokensCheck, await against(await reference({ faults: [{ name: 'revoke-no-op' }] })), ROWS)
    expect(byStatus(verdicts)).toMatchObject({ failed: [REVOKE], skipped: [] })
    expect(verdicts.get(REVOKE)!.message).toMatch(/^the revoked token was let through GET \/V1\/customers\/me \(200 .*\) after the revoke answered 200 true$/)
  })

  it('fails only the customer token endpoint when it issues a token for a wrong password, and shows not the token', async () => {
    const t = await reference({ faults: [{ name: 'token-wrong-password' }] })
    const verdicts = await runOverCatalog(tokensCheck, await against(t), ROWS)
    expect(byStatus(verdicts)).toMatchObject({ failed: [CUSTOMER_TOKEN], skipped: [] })
    const v = verdicts.get(CUSTOMER_TOKEN)!
    expect(v.message).toMatch(/; a wrong password for the run's own customer \S+ got a token \(200, a string of 64 characters\) where tokens are obtained for the caller's credentials$/)
    for (const token of t.issuedTokens()) expect(JSON.stringify(v)).not.toContain(token)
    expect(JSON.stringify(v.exchanges)).toContain('[redacted token issued for wrong credentials]')
  })

  it(`asks again ${REVOKE_SETTLE_MS} ms after the revoke when the new token is refused, so a platform refusing a token of the revoke's second passes`, async () => {
    const s = await against(await reference({ variants: ['revoke-same-second'] }))
    const started = Date.now()
    const v = await tokensCheck.run(findRow('POST', '/V1/integration/customer/revoke-customer-token')!, s)
    expect(v.status).toBe('passed')
    expect(v.details).toMatchObject({ 'the new token at once': expect.stringMatching(/^(200|401) /) })
    // The token asked for at once falls in the revoke's second but for the few milliseconds before a second ends:
    // then it works, and there is no wait to see.
    if ((v.details as Record<string, string>)['the new token at once']!.startsWith('401')) {
      expect(v.message).toMatch(/; a token the customer got 2 s after the revoke was let through GET \/V1\/customers\/me \(200\)$/)
      expect(v.details).toMatchObject({ 'the new token 2 s after the revoke': expect.stringMatching(/^200 /) })
      expect(Date.now() - started).toBeGreaterThanOrEqual(REVOKE_SETTLE_MS)
    }
  })

  it('fails a revoke that locks the customer out: no new token, at once nor after the wait', async () => {
    const s = await against(await reference())
    // A revoke that does more than revoke the token: here the customer is deleted with it, behind the check's back.
    const send = s.send.bind(s)
    s.send = async (spec) => {
      if (!spec.path.endsWith('/revoke-customer-token')) return send(spec)
      const me = await send({ method: 'GET', path: '/V1/customers/me', store: spec.store, token: spec.token! })
      const outcome = await send(spec)
      await send({ method: 'DELETE', path: `/V1/customers/${(me.answer!.body as { id: number }).id}`, store: spec.store, token: s.tokenFor('admin')! })
      return outcome
    }
    const v = await tokensCheck.run(findRow('POST', '/V1/integration/customer/revoke-customer-token')!, s)
    expect(v.status).toBe('failed')
    expect(v.message).toMatch(/^the customer's own credentials got no token 2 s after the revoke \(401 "The account sign-in was incorrect.*\): the revoke did more than revoke the token$/)
  })

  it('in read-only mode judges the unknown user names, and says what it could not try and why', async () => {
    const verdicts = await runOverCatalog(tokensCheck, await against(await reference(), ['--read-only']), ROWS)
    expect(verdicts.get(ADMIN_TOKEN)!.status).toBe('passed')
    expect(verdicts.get(CUSTOMER_TOKEN)).toMatchObject({ status: 'skipped', reason: 'read-only' })
    expect(verdicts.get(CUSTOMER_TOKEN)!.message).toMatch(/^not fully judged: an unknown user name refused \(401 .*\); a wrong password not tried: read-only mode registers no customer of the run's own/)
    expect(verdicts.get(REVOKE)).toMatchObject({ status: 'skipped', reason: 'read-only', message: 'not judged: read-only mode sends no POST, and the revoke is one', exchanges: [] })
  })

  it('agrees with a real 2.4.7 instance\'s answers (customer-token-revoked, token-wrong-credentials, replayed)', async () => {
    const verdicts = await runOverCatalog(tokensCheck, await against(await startObservedTarget()), ROWS)
    expect(byStatus(verdicts)).toEqual({ passed: [ADMIN_TOKEN, REVOKE, CUSTOMER_TOKEN].sort(), failed: [], skipped: [] })
    expect(verdicts.get(REVOKE)!.message).toContain('refused on GET /V1/customers/me (401 "The consumer isn\'t authorized to access self.")')
  })
})

describe('an answer to wrong credentials', () => {
  const session = { secrets: { add: () => undefined, redact: <T>(x: T) => x } } as unknown as Session
  const outcome = (status: number, body: unknown, json = true): Outcome => {
    const answer: Answer = { status, headers: {}, body, json, text: json ? JSON.stringify(body) : String(body) }
    return { answer, exchange: { request: { method: 'POST', url: 'http://127.0.0.1:1/rest/default/V1/integration/customer/token', headers: {} }, response: { status, headers: {}, body }, durationMs: 1 } }
  }
  const observed = JSON.parse(readFileSync(new URL('../../fixtures/observations/responses-2.4.7/token-wrong-credentials.json', import.meta.url), 'utf8')) as { exchanges: { name: string; response: { status: number; body: unknown } }[] }

  it('passes the refusals a real 2.4.7 instance answered', () => {
    for (const { name, response } of observed.exchanges) expect(readRefusal(session, name, outcome(response.status, response.body)), name).toMatchObject({ status: 'passed' })
  })

  it('fails a token, as the body or a field named like one, and only then', () => {
    expect(readRefusal(session, 'x', outcome(200, 'eyJhbGciOi.token'))).toMatchObject({ status: 'failed' })
    expect(readRefusal(session, 'x', outcome(200, { access_token: 'abc123' }))).toMatchObject({ status: 'failed' })
    expect(readRefusal(session, 'x', outcome(401, 'The account sign-in was incorrect'))).toMatchObject({ status: 'passed' })
  })

  it('warns where no token came but the status is not a 4xx (the spec does not show a refusal\'s status), and does not judge no answer', () => {
    for (const [status, body, json] of [[200, {}, true], [200, false, true], [500, { message: 'Internal Error.' }, true], [200, '<html>', false]] as const) {
      const r = readRefusal(session, 'x', outcome(status, body, json))
      expect(r.status, `${status} ${JSON.stringify(body)}`).toBe('passed')
      expect(r.warning).toMatch(/not a 4xx: no token came, but the spec does not show how a refusal is answered/)
    }
    const none: Outcome = { failure: { kind: 'timeout', message: 'no complete answer within 10 ms' }, exchange: { request: { method: 'POST', url: 'http://x', headers: {} }, error: 'timeout', durationMs: 10 } }
    expect(readRefusal(session, 'x', none)).toMatchObject({ status: 'skipped', reason: 'timeout' })
  })
})
