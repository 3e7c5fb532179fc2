/**
 * The acl check's judge on the answers it is handed — made up, or a real 2.4.7 instance's limited admin's
 * recorded ones: no target. Its runs against the reference target, clean and under a fault
 * switch: acl.test.ts.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { CATALOG, findRow } from '../spec/catalog/index.ts'
import type { SequenceCaller } from '../shop/probe.ts'
import { ACL_NOT_CONFIGURED, aclCheck, judgeAcl } from './acl.ts'
import type { ProbeSettings } from './probe.ts'
import { answersOf, NO_ROUTE, OK, reply, UNAUTHORIZED, type Reply } from './testing-answers.ts'
import { endpointText } from '../spec/endpoint-id.ts'

const ACL_ROWS = CATALOG.filter((r) => r.acl !== undefined)
const CLERK = { username: 'clerk', resources: ['Shop_Catalog::categories', 'Shop_Catalog::sets'] }
const WITH_CLERK: ProbeSettings = { readOnly: false, limitedAdmin: CLERK, customer: { reads: true, writes: true } }

/**
 * The acl verdict of a row whose valid request got `replyOf(caller)`: the limited admin's answer, and the run's
 * admin's.
 */
function aclOf(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  replyOf: (caller: SequenceCaller) => Reply | undefined,
  settings = WITH_CLERK,
) {
  const row = findRow(method, path)!
  return judgeAcl(
    row,
    answersOf(aclCheck.probes(row, settings), () => undefined, { reply: replyOf }),
    settings,
  )
}
const refusedWhereLacking = (caller: SequenceCaller) => (caller === 'limited admin' ? UNAUTHORIZED : OK)

describe('the acl judge', () => {
  it('applies to the 15 endpoints the detail table names an ACL resource for, and to no other', () => {
    expect(ACL_ROWS).toHaveLength(15)
    for (const row of CATALOG) expect(aclCheck.appliesTo(row) === true, endpointText(row)).toBe(row.acl !== undefined)
  })

  it("passes a limited admin refused where its role lacks the resource, let through where it has it, the admin's success the witness", () => {
    expect(aclOf('GET', '/V1/taxRates/:rateId', refusedWhereLacking).message).toMatch(
      /^the limited admin \(clerk\), whose role lacks Shop_Tax::manage_tax, was refused \(401 .*\), where the run's admin got 200 for the same request$/,
    )
    const has = aclOf('PUT', '/V1/eav/attribute-sets/:attributeSetId', () => OK)
    expect(has.message).toMatch(
      /^the limited admin \(clerk\), whose role has Shop_Catalog::sets, was let through \(200 /,
    )
    expect(has.details).toMatchObject({
      resource: 'Shop_Catalog::sets',
      roleHas: true,
      expected: 'accept',
      seen: 'accepted',
      admin: { seen: 'accepted' },
    })
  })

  it('fails a limited admin let through where its role lacks the resource, and one refused where it has it', () => {
    expect(aclOf('DELETE', '/V1/carts/:cartId/items/:itemId', () => OK)).toMatchObject({
      status: 'failed',
      details: { seen: 'accepted', admin: { seen: 'accepted' } },
      message: expect.stringMatching(
        /^the limited admin \(clerk\), whose role lacks Shop_Cart::manage, was let through \(200 .*\) where the token must carry Shop_Cart::manage$/,
      ),
    })
    const settings = {
      ...WITH_CLERK,
      limitedAdmin: { ...CLERK, resources: [...CLERK.resources, 'Shop_Tax::manage_tax'] },
    }
    expect(aclOf('GET', '/V1/taxRates/:rateId', refusedWhereLacking, settings).message).toMatch(
      /^the limited admin \(clerk\), whose role has Shop_Tax::manage_tax, was refused \(401 .*\) where its token carries the resource the detail table names$/,
    )
  })

  it('is not configured, and plans nothing to send, without a limited admin', () => {
    const without: ProbeSettings = { readOnly: false, customer: { reads: true, writes: true } }
    for (const row of ACL_ROWS) {
      const plan = aclCheck.probes(row, without)
      expect(plan).toEqual({ calls: [] })
      expect(judgeAcl(row, { plan, calls: new Map() }, without)).toMatchObject({
        status: 'skipped',
        reason: 'not-configured',
        message: ACL_NOT_CONFIGURED,
        exchanges: [],
      })
    }
    expect(ACL_NOT_CONFIGURED).toMatch(
      /^not configured: .*SHOP_LIMITED_ADMIN_USERNAME, SHOP_LIMITED_ADMIN_PASSWORD and SHOP_LIMITED_ADMIN_RESOURCES/,
    )
  })

  it('judges the GET endpoints in read-only mode and leaves the others unjudged for it', () => {
    const readOnly = { ...WITH_CLERK, readOnly: true, customer: { reads: true, writes: false } }
    for (const row of ACL_ROWS) {
      const v = aclOf(row.method, row.path, refusedWhereLacking, readOnly)
      if (row.method === 'GET') expect(v.status, `${endpointText(row)}`).not.toBe('skipped')
      else expect(v, `${endpointText(row)}`).toMatchObject({ status: 'skipped', reason: 'read-only' })
    }
  })

  it("does not judge an endpoint whose route is missing, nor one that refuses the run's admin too", () => {
    expect(aclOf('GET', '/V1/taxRates/:rateId', () => NO_ROUTE)).toMatchObject({
      status: 'skipped',
      reason: 'route-missing',
    })
    // A server error of the run's admin, or of the limited admin: no answer about the resource, never failed (issue
    // 29).
    expect(
      aclOf('GET', '/V1/shipment/:id/label', (caller) =>
        caller === 'admin' ? reply(500, { message: 'Internal Error. Report ID: webapi-1' }) : UNAUTHORIZED,
      ),
    ).toMatchObject({
      status: 'skipped',
      reason: 'server-error',
      message: expect.stringMatching(/Report ID: webapi-1/),
    })
    expect(
      aclOf('GET', '/V1/shipment/:id/label', (caller) =>
        caller === 'limited admin' ? reply(500, { message: 'Internal Error.' }) : OK,
      ),
    ).toMatchObject({ status: 'skipped', reason: 'server-error' })
    expect(aclOf('GET', '/V1/shipment/:id/label', () => UNAUTHORIZED)).toMatchObject({
      status: 'skipped',
      reason: 'unusable-answer',
      message: expect.stringMatching(/the run's admin was refused too/),
    })
  })

  it("agrees with a real 2.4.7 instance's limited admin (observation acl-limited-admin): every endpoint as its role says", () => {
    const observed = JSON.parse(
      readFileSync(
        new URL('../../fixtures/observations/responses-2.4.7/acl-limited-admin.json', import.meta.url),
        'utf8',
      ),
    ) as {
      exchanges: {
        request: { method: string; path: string; caller: string }
        response: { status: number; body: unknown }
      }[]
    }
    const rows = {
      '/V1/taxRates/1': '/V1/taxRates/:rateId',
      '/V1/customerGroups/default': '/V1/customerGroups/default',
      '/V1/categories/2': '/V1/categories/:categoryId',
    } as Record<string, string>
    const judged = observed.exchanges
      .filter((e) => e.request.caller === 'limited admin')
      .map((e) =>
        aclOf('GET', rows[e.request.path]!, (caller) =>
          caller === 'limited admin' ? reply(e.response.status, e.response.body) : OK,
        ),
      )
    expect(judged.map((v) => v.status)).toEqual(['passed', 'passed', 'passed'])
    expect(judged[1]!.message).toContain(
      'was refused (401 "The consumer isn\'t authorized to access Shop_Customer::group.")',
    )
  })
})
