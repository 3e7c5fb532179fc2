/**
 * The tokens check run against the reference target: clean, and under the fault switch that breaks its rule.
 * Its judgements on given answers (no target): tokens-answers.test.ts.
 */
import { afterAll, describe, expect, it } from 'vitest'
import {
  startReferenceTarget,
  type ReferenceTarget,
  type ReferenceTargetOptions,
} from '../../reference-target/index.ts'
import { byStatus, rowsJudgedBy, runOverCatalog, targetSessions } from './testing.ts'
import { tokensCheck } from './tokens.ts'

const ROWS = rowsJudgedBy(tokensCheck)
const ADMIN_TOKEN = 'POST /V1/integration/admin/token'
const CUSTOMER_TOKEN = 'POST /V1/integration/customer/token'
const REVOKE = 'POST /V1/integration/customer/revoke-customer-token'

// Concurrent: each starts its own target. Its judgements on given answers: tokens-answers.test.ts.
describe.concurrent('tokens check', () => {
  const sessions = targetSessions()
  afterAll(() => sessions.closeAll())
  const against = (target: ReferenceTarget, argv: string[] = []) => sessions.open(target, argv)
  const reference = (options: ReferenceTargetOptions = {}) => startReferenceTarget(options)

  it('fails only the revoke when it revokes nothing (revoke-no-op)', async () => {
    const verdicts = await runOverCatalog(
      tokensCheck,
      await against(await reference({ faults: [{ name: 'revoke-no-op' }] })),
      ROWS,
    )
    expect(byStatus(verdicts)).toMatchObject({ failed: [REVOKE], skipped: [] })
    expect(verdicts.get(REVOKE)!.message).toMatch(
      /^the revoked token was let through GET \/V1\/customers\/me \(200 .*\) after the revoke answered 200 true$/,
    )
  })

  it('fails only the customer token endpoint when it issues a token for a wrong password, and shows not the token', async () => {
    const t = await reference({ faults: [{ name: 'token-wrong-password' }] })
    const verdicts = await runOverCatalog(tokensCheck, await against(t), ROWS)
    expect(byStatus(verdicts)).toMatchObject({ failed: [CUSTOMER_TOKEN], skipped: [] })
    const v = verdicts.get(CUSTOMER_TOKEN)!
    expect(v.message).toMatch(
      /; a wrong password for the run's own customer \S+ got a token \(200, a string of 64 characters\) where tokens are obtained for the caller's credentials$/,
    )
    for (const token of t.issuedTokens()) expect(JSON.stringify(v)).not.toContain(token)
    expect(JSON.stringify(v.exchanges)).toContain('[redacted token issued for wrong credentials]')
  })

  it('in read-only mode judges the unknown user names, and says what it could not try and why', async () => {
    const verdicts = await runOverCatalog(tokensCheck, await against(await reference(), ['--read-only']), ROWS)
    expect(verdicts.get(ADMIN_TOKEN)!.status).toBe('passed')
    expect(verdicts.get(CUSTOMER_TOKEN)).toMatchObject({ status: 'skipped', reason: 'read-only' })
    expect(verdicts.get(CUSTOMER_TOKEN)!.message).toMatch(
      /^not fully judged: an unknown user name refused \(401 .*\); a wrong password not tried: read-only mode registers no customer of the run's own/,
    )
    expect(verdicts.get(REVOKE)).toMatchObject({
      status: 'skipped',
      reason: 'read-only',
      message: 'not judged: read-only mode sends no POST, and the revoke is one',
      exchanges: [],
    })
  })
})
