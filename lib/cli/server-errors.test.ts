/**
 * A shop whose module breaks at one endpoint the spec tables no body for (issue 29): the reference target's
 * `source-selection-broken` variant answers every call it admits at `POST /V1/inventory/source-selection-algorithm-result`
 * 500 "Internal Error. … Report ID: webapi-…". A server error is no rule of the spec ("HTTP status code per error case:
 * not shown"): a whole run of the endpoint's module fails nothing, reads the route as served and leaves the rules that
 * needed a success not judged for the server error — at that endpoint, and nowhere else.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { startReferenceTarget } from '../../reference-target/index.ts'
import { endpointText } from '../spec/endpoint-id.ts'
import { limitedAdminEnv } from '../checks/testing.ts'
import { cli } from './testing.ts'

const BROKEN = 'POST /V1/inventory/source-selection-algorithm-result'

describe('a run against a shop whose source selection answers every call with a server error', { timeout: 300_000 }, () => {
  const closers: (() => Promise<void>)[] = []
  afterAll(async () => {
    for (const c of closers) await c()
  })

  it('fails nothing: the route is served, access and store-code are not judged for the server error, there alone', async () => {
    const target = await startReferenceTarget({ variants: ['source-selection-broken'] })
    closers.push(() => target.close())
    const run = await cli(['run', '--base-url', target.url, '--module', 'inventory-other'], { SHOP_ADMIN_USERNAME: target.admin.username, SHOP_ADMIN_PASSWORD: target.admin.password, ...limitedAdminEnv(target) })
    const r = run.report!
    expect(r.results.filter((x) => x.status === 'failed').map((x) => `${x.id}: ${x.message}`)).toEqual([])
    expect(run.status).toBe(0)
    const at = (check: string) => r.results.find((x) => x.id === `${BROKEN} › ${check}`)!
    expect(at('route')).toMatchObject({ status: 'passed', message: expect.stringMatching(/^served: answered a server error \(500 "Internal Error\. Details are available in Shop log file\. Report ID: webapi-[0-9a-f]{13}"\)/) })
    expect(at('access')).toMatchObject({ status: 'skipped', reason: 'server-error', details: { witness: 'admin', matrix: { none: { seen: 'refused' }, admin: { seen: 'no usable answer' } } } })
    expect(at('access').message).toMatch(/^not judged: the caller the spec admits \(admin token\) got a server error \(500 .*Report ID: webapi-[0-9a-f]{13}"\)/)
    expect(at('store-code')).toMatchObject({ status: 'skipped', reason: 'server-error' })
    // Elsewhere the module judges as on the clean target: every rule that applies passed.
    const elsewhere = r.results.filter((x) => endpointText(x.endpoint) !== BROKEN && x.applicable !== false)
    expect(elsewhere.length).toBeGreaterThan(30)
    expect(elsewhere.filter((x) => x.status !== 'passed').map((x) => `${x.id}: ${x.status} ${x.reason ?? ''}`)).toEqual([])
  })
})
