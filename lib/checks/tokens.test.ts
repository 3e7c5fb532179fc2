import { readFileSync } from 'node:fs'
import { afterAll, describe, expect, it } from 'vitest'
import { startReferenceTarget, type ReferenceTarget, type ReferenceTargetOptions } from '../../reference-target/index.ts'
import { CATALOG } from '../spec/catalog/index.ts'
import type { Answer, Outcome } from '../shop/request.ts'
import { byStatus, runOverCatalog, targetSessions } from './testing.ts'
import { tokensCheck } from './tokens.ts'
import { judgeRevocation, judgeWrongCredentials, ME, type Renewal } from './token-judgements.ts'
import { probeOf, reply, type Reply } from './testing-answers.ts'
import { endpointText } from '../spec/endpoint-id.ts'

const ROWS = CATALOG.filter((r) => tokensCheck.appliesTo(r) === true)
const ADMIN_TOKEN = 'POST /V1/integration/admin/token'
const CUSTOMER_TOKEN = 'POST /V1/integration/customer/token'
const REVOKE = 'POST /V1/integration/customer/revoke-customer-token'

// Concurrent: each starts its own target.
describe.concurrent('tokens check', () => {
  const sessions = targetSessions()
  afterAll(() => sessions.closeAll())
  const against = (target: ReferenceTarget, argv: string[] = []) => sessions.open(target, argv)
  const reference = (options: ReferenceTargetOptions = {}) => startReferenceTarget(options)

  it('applies to the two token endpoints and the revoke, and to no other endpoint', () => {
    expect(ROWS.map((r) => endpointText(r)).sort()).toEqual([ADMIN_TOKEN, REVOKE, CUSTOMER_TOKEN].sort())
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



  it('in read-only mode judges the unknown user names, and says what it could not try and why', async () => {
    const verdicts = await runOverCatalog(tokensCheck, await against(await reference(), ['--read-only']), ROWS)
    expect(verdicts.get(ADMIN_TOKEN)!.status).toBe('passed')
    expect(verdicts.get(CUSTOMER_TOKEN)).toMatchObject({ status: 'skipped', reason: 'read-only' })
    expect(verdicts.get(CUSTOMER_TOKEN)!.message).toMatch(/^not fully judged: an unknown user name refused \(401 .*\); a wrong password not tried: read-only mode registers no customer of the run's own/)
    expect(verdicts.get(REVOKE)).toMatchObject({ status: 'skipped', reason: 'read-only', message: 'not judged: read-only mode sends no POST, and the revoke is one', exchanges: [] })
  })

})

describe('an answer to wrong credentials', () => {
  const outcome = (status: number, body: unknown, json = true): Outcome => {
    const answer: Answer = { status, headers: {}, body, json, text: json ? JSON.stringify(body) : String(body) }
    return { answer, exchange: { request: { method: 'POST', url: 'http://127.0.0.1:1/rest/default/V1/integration/customer/token', headers: {} }, response: { status, headers: {}, body }, durationMs: 1 } }
  }
  const observed = JSON.parse(readFileSync(new URL('../../fixtures/observations/responses-2.4.7/token-wrong-credentials.json', import.meta.url), 'utf8')) as { exchanges: { name: string; response: { status: number; body: unknown } }[] }

  it('passes the refusals a real 2.4.7 instance answered', () => {
    for (const { name, response } of observed.exchanges) expect(judgeWrongCredentials(name, outcome(response.status, response.body)), name).toMatchObject({ status: 'passed' })
  })

  it('fails a token, as the body or a field named like one, and only then', () => {
    expect(judgeWrongCredentials('x', outcome(200, 'eyJhbGciOi.token'))).toMatchObject({ status: 'failed' })
    expect(judgeWrongCredentials('x', outcome(200, { access_token: 'abc123' }))).toMatchObject({ status: 'failed' })
    expect(judgeWrongCredentials('x', outcome(401, 'The account sign-in was incorrect'))).toMatchObject({ status: 'passed' })
  })

  it('warns where no token came but the status is not a 4xx (the spec does not show a refusal\'s status), and does not judge no answer', () => {
    for (const [status, body, json] of [[200, {}, true], [200, false, true], [500, { message: 'Internal Error.' }, true], [200, '<html>', false]] as const) {
      const r = judgeWrongCredentials('x', outcome(status, body, json))
      expect(r.status, `${status} ${JSON.stringify(body)}`).toBe('passed')
      expect(r.warning).toMatch(/not a 4xx: no token came, but the spec does not show how a refusal is answered/)
    }
    const none: Outcome = { failure: { kind: 'timeout', message: 'no complete answer within 10 ms' }, exchange: { request: { method: 'POST', url: 'http://x', headers: {} }, error: 'timeout', durationMs: 10 } }
    expect(judgeWrongCredentials('x', none)).toMatchObject({ status: 'skipped', reason: 'timeout' })
  })
})

describe('a revocation\'s calls', () => {
  const observed = JSON.parse(readFileSync(new URL('../../fixtures/observations/responses-2.4.7/customer-token-revoked.json', import.meta.url), 'utf8')) as { exchanges: { request: { method: string; path: string }; response: { status: number; body: unknown } }[] }
  const recorded = observed.exchanges.map((e) => probeOf('customer', 'default', e.request.method, e.request.path, reply(e.response.status, e.response.body)))
  const [before, revoke, after] = recorded as [ReturnType<typeof probeOf>, ReturnType<typeof probeOf>, ReturnType<typeof probeOf>]
  const me = (r: Reply) => probeOf('customer', 'default', 'GET', ME, r)
  const renewal = (when: string, token: Reply, use?: Reply): Renewal => ({ when, fresh: probeOf('none', 'default', 'POST', '/V1/integration/customer/token', token), issued: token.status === 200, ...(use !== undefined ? { use: me(use) } : {}) })
  const SIGN_IN_REFUSED = reply(401, { message: 'The account sign-in was incorrect or your account is disabled temporarily. Please wait and try again later.' })

  it('leave the rule open until a new token is tried, on a real 2.4.7 instance\'s answers (customer-token-revoked), then pass', () => {
    expect(judgeRevocation({ before })).toBeUndefined()
    expect(judgeRevocation({ before, revoke })).toBeUndefined()
    expect(judgeRevocation({ before, revoke, after })).toBeUndefined()
    const v = judgeRevocation({ before, revoke, after, renewals: [renewal('at once', reply(200, 'fresh-token'), reply(200, { id: 1 }))] })
    expect(v).toEqual({ status: 'passed', message: 'the revoked token was refused on GET /V1/customers/me (401 "The consumer isn\'t authorized to access self."); a token the customer got at once was let through GET /V1/customers/me (200)' })
  })

  it('fail a revoked token let through, and not judge a revoke that was not accepted or a token not let through before', () => {
    expect(judgeRevocation({ before, revoke, after: me(reply(200, { id: 1 })) })).toMatchObject({ status: 'failed', message: expect.stringMatching(/^the revoked token was let through GET \/V1\/customers\/me \(200 .*\) after the revoke answered 200 true$/) })
    expect(judgeRevocation({ before, revoke: me(reply(404, { message: 'x' })) })).toMatchObject({ status: 'skipped', reason: 'unusable-answer', message: expect.stringMatching(/^not judged: the revoke was not accepted/) })
    expect(judgeRevocation({ before: me(reply(401, { message: 'x' })) })).toMatchObject({ status: 'skipped', message: expect.stringMatching(/was not let through GET \/V1\/customers\/me before the revoke/) })
  })

  // The platform refuses a token issued in the revoke's second (platform conventions, Tokens): asked again, the second is judged.
  it('ask again for a new token refused at once, and fail a revoke that locks the customer out: no new token at once nor after the wait', () => {
    const once = [renewal('at once', SIGN_IN_REFUSED)]
    expect(judgeRevocation({ before, revoke, after, renewals: once })).toBeUndefined()
    expect(judgeRevocation({ before, revoke, after, renewals: [...once, renewal('2 s after the revoke', reply(200, 'fresh'), reply(200, { id: 1 }))] })).toMatchObject({ status: 'passed', message: expect.stringMatching(/; a token the customer got 2 s after the revoke was let through GET \/V1\/customers\/me \(200\)$/) })
    expect(judgeRevocation({ before, revoke, after, renewals: [...once, renewal('2 s after the revoke', SIGN_IN_REFUSED)] })).toMatchObject({
      status: 'failed',
      message: expect.stringMatching(/^the customer's own credentials got no token 2 s after the revoke \(401 "The account sign-in was incorrect.*\): the revoke did more than revoke the token$/),
    })
  })
})
