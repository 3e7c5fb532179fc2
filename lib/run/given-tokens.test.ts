/**
 * A shop with two-factor admin login (issue 22.11): the platform turns it on for admins by default, and then its
 * admin token endpoint gives no token for any password. The run takes tokens the user already has
 * (`SHOP_ADMIN_TOKEN`, `SHOP_LIMITED_ADMIN_TOKEN`, `SHOP_CUSTOMER_TOKEN`: an integration's access token, a
 * customer's token), says which it used, never prints one, never writes with the user's customer's, and says so
 * when one is refused mid-run (it cannot be renewed).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  REFERENCE_ADMIN,
  REFERENCE_INTEGRATION_TOKENS,
  REFERENCE_LIMITED_ADMIN,
  startReferenceTarget,
  type ReferenceTarget,
} from '../../reference-target/index.ts'
import { openSession } from '../checks/testing.ts'
import { cli, everythingWritten, type CliRun } from '../cli/testing.ts'

const ADMIN_ENV = { SHOP_ADMIN_USERNAME: REFERENCE_ADMIN.username, SHOP_ADMIN_PASSWORD: REFERENCE_ADMIN.password }
const TOKENS_ENV = {
  SHOP_ADMIN_TOKEN: REFERENCE_INTEGRATION_TOKENS.admin,
  SHOP_LIMITED_ADMIN_TOKEN: REFERENCE_INTEGRATION_TOKENS.limitedAdmin,
  SHOP_LIMITED_ADMIN_RESOURCES: REFERENCE_LIMITED_ADMIN.resources.join(','),
}
const EMAIL = 'two.factor.shopper@example.com'
const PASSWORD = 'Shopper-Pw-2fa-91'

async function post(t: ReferenceTarget, path: string, body: unknown): Promise<unknown> {
  const res = await fetch(`${t.url}/rest/default${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
  })
  expect(res.status, path).toBe(200)
  return res.json()
}

describe('a shop with two-factor admin login', { timeout: 180_000 }, () => {
  let t: ReferenceTarget
  let customerToken: string
  let run: CliRun
  beforeAll(async () => {
    t = await startReferenceTarget({ variants: ['admin-two-factor'] })
    await post(t, '/V1/customers', {
      customer: { email: EMAIL, firstname: 'Two', lastname: 'Factor' },
      password: PASSWORD,
    })
    customerToken = (await post(t, '/V1/integration/customer/token', { username: EMAIL, password: PASSWORD })) as string
    run = await cli(['run', '--base-url', t.url], { ...TOKENS_ENV, SHOP_CUSTOMER_TOKEN: customerToken })
  }, 180_000)
  afterAll(async () => {
    await t.close()
  })

  it("refuses the admin's password in one line that says what to give instead", async () => {
    const refused = await cli(['run', '--base-url', t.url], ADMIN_ENV)
    expect(refused.status).toBe(2)
    expect(refused.stderr).toBe(
      'shop-conformance: admin credentials refused: the shop signs its admins in with two-factor authentication and gives no token for a password (400: "Please use the 2fa provider-specific endpoints to obtain a token."); give an integration\'s access token as SHOP_ADMIN_TOKEN instead (README: "A shop with two-factor admin login")\n',
    )
  })

  it('stops before anything is made when the shop refuses the admin token given, saying what may be wrong', async () => {
    const posts = t.stats().byMethod.POST ?? 0
    const refused = await cli(['run', '--base-url', t.url], { SHOP_ADMIN_TOKEN: 'no0such0integration0token' })
    expect(refused.status).toBe(2)
    expect(refused.stderr).toMatch(
      /^shop-conformance: the admin token given \(SHOP_ADMIN_TOKEN\) is refused by every admin endpoint tried \([^)]*\): it may have expired or been revoked, .*Allow OAuth Access Tokens to be used as standalone Bearer tokens.*\n$/,
    )
    expect(refused.stderr).not.toContain('no0such0integration0token')
    // No customer registered, nothing left over: the token was tried before any write.
    expect((t.stats().byMethod.POST ?? 0) - posts).toBe(0)
    expect(refused.report!.cleanup.leftovers).toEqual([])
  })

  it("runs with the tokens given, says which it used, and leaves unjudged only the token check that needs the admin's password", () => {
    const line =
      "signed in with the tokens given: admin (SHOP_ADMIN_TOKEN), customer (SHOP_CUSTOMER_TOKEN), limited admin (SHOP_LIMITED_ADMIN_TOKEN); a token given is never renewed (refused mid-run, it stays refused); the tokens check of POST /V1/integration/admin/token is not judged without the admin's password"
    expect(run.stdout.split('\n')).toContain(line)
    const r = run.report!
    expect(r.notes).toContain(line)
    expect(
      r.results.filter((x) => x.status === 'failed' || x.status === 'error').map((x) => `${x.id}: ${x.message}`),
    ).toEqual([])
    expect(r.results.filter((x) => x.reason === 'token-given')).toEqual([
      expect.objectContaining({ id: 'POST /V1/integration/admin/token › tokens', status: 'skipped' }),
    ])
    // The limited admin's token judged the acl check; the customer's, the self endpoints.
    expect(r.results.filter((x) => x.check === 'acl' && x.status === 'passed').length).toBeGreaterThan(0)
    expect(r.results.find((x) => x.id === 'GET /V1/customers/me › access')!.status).toBe('passed')
    expect(run.status).toBe(0)
  })

  it("never prints or writes a token given, and never sends a write with the customer's", () => {
    const all = everythingWritten(run)
    for (const token of [
      REFERENCE_INTEGRATION_TOKENS.admin,
      REFERENCE_INTEGRATION_TOKENS.limitedAdmin,
      customerToken,
      ...t.issuedTokens(),
    ]) {
      expect(all.includes(token), `a token of ${token.length} characters leaked`).toBe(false)
    }
    expect(all).toContain('[redacted admin token given as SHOP_ADMIN_TOKEN]')
    expect(t.customerWrites(EMAIL)).toEqual([])
  })
})

describe('a token given that the shop refuses mid-run', () => {
  it('is not renewed, and the run says so', async () => {
    const t = await startReferenceTarget({ variants: ['admin-two-factor'] })
    try {
      const session = await openSession(t, [], { SHOP_ADMIN_TOKEN: REFERENCE_INTEGRATION_TOKENS.admin })
      try {
        t.revokeToken(REFERENCE_INTEGRATION_TOKENS.admin)
        const o = await session.send({
          method: 'GET',
          path: '/V1/modules',
          store: 'default',
          token: session.tokenFor('admin'),
        })
        expect(o.answer?.status).toBe(401)
        expect(session.takeNotes()).toEqual([
          'the admin token given (SHOP_ADMIN_TOKEN) was refused during the run (it expired or was revoked): a token given cannot be renewed, so the requests sent with it from then on were refused — give a fresh one',
        ])
      } finally {
        await session.close()
      }
    } finally {
      await t.close()
    }
  })
})
