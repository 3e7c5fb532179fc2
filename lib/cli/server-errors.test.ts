/**
 * The server errors a whole run meets, end to end through `shop-conformance run` (issue 29, point 1). A server error is
 * no rule of the spec ("HTTP status code per error case: not shown"): listed, never failed.
 *
 * - Listed: a reference target answering 500 at the source selection (whose body its published schema documents) and
 *   at a customer's password change (whose body holds two passwords). Each request the shop answered so is listed in
 *   report.json (valid against its JSON Schema), summary.md and report.html, with what a vendor needs to repeat it —
 *   and no secret. That they are never the verdict: the schema-broken run of extensions.test.ts (nothing fails, it
 *   conforms, exit 0).
 * - Judged: the `source-selection-broken` variant answers every call it admits at the source selection 500 "Internal
 *   Error. … Report ID: webapi-…": a whole run of the endpoint's module fails nothing, reads the route as served and
 *   leaves the rules that needed a success not judged for the server error — at that endpoint, and nowhere else.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { REFERENCE_ADMIN, REFERENCE_LIMITED_ADMIN, startReferenceTarget } from '../../reference-target/index.ts'
import { endpointText } from '../spec/endpoint-id.ts'
import { limitedAdminEnv } from '../checks/testing.ts'
import { serverErrorsProblems } from '../report/testing.ts'
import { cli, everythingWritten } from './testing.ts'

const SELECTION = 'POST /V1/inventory/source-selection-algorithm-result'
const PASSWORD_CHANGE = 'PUT /V1/customers/me/password'

describe('shop-conformance run: the server errors it met', { timeout: 300_000 }, () => {
  const closers: (() => Promise<void>)[] = []
  afterAll(async () => {
    for (const c of closers) await c()
  })

  it('lists each request answered 5xx in report.json, summary.md and report.html, with its request and a curl, and no secret', async () => {
    const at = (text: string) => ({ method: text.split(' ')[0]!, path: text.split(' ')[1]! })
    const target = await startReferenceTarget({
      faults: [
        { name: 'server-error-json', ...at(SELECTION) },
        { name: 'server-error', ...at(PASSWORD_CHANGE) },
      ],
    })
    closers.push(() => target.close())
    const run = await cli(['run', '--base-url', target.url, '--module', 'inventory-other,customer'], {
      SHOP_ADMIN_USERNAME: target.admin.username,
      SHOP_ADMIN_PASSWORD: target.admin.password,
      ...limitedAdminEnv(target),
    })
    const r = run.report!
    const block = r.serverErrors!
    expect(serverErrorsProblems(block)).toEqual([])
    expect(block.operations).toBe(2)
    expect(block.answers).toBe(block.entries.reduce((n, e) => n + e.count, 0))

    // The valid request of the source selection, as the admin sent it: the body the shop's schema documents.
    const documented = block.entries.find(
      (e) => e.endpoint === SELECTION && e.caller === 'admin' && e.store === 'default',
    )!
    expect(documented).toMatchObject({
      method: 'POST',
      origin: 'spec',
      path: '/V1/inventory/source-selection-algorithm-result',
      body: { inventoryRequest: { stockId: 1, items: [{ qty: 1 }] }, algorithmCode: 'priority' },
      status: 500,
      reportId: expect.stringMatching(/^webapi-[0-9a-f]{13}$/),
      bodyKeys: [
        'inventoryRequest.stockId',
        'inventoryRequest.items[].sku',
        'inventoryRequest.items[].qty',
        'algorithmCode',
      ],
      schemaDocumentsBody: true,
      results: expect.arrayContaining([`${SELECTION} › route`]),
    })
    // Every caller the checks sent it as, each its own entry; the worker's requests all reached the run's list.
    expect(new Set(block.entries.filter((e) => e.endpoint === SELECTION).map((e) => e.caller))).toEqual(
      new Set(['admin', 'none', 'malformed', 'customer']),
    )
    for (const result of r.results.filter((x) => x.exchanges.some((e) => (e.response?.status ?? 0) >= 500))) {
      expect(
        block.entries.some((e) => e.results?.includes(result.id)),
        result.id,
      ).toBe(true)
    }
    // A customer's password change: its passwords redacted in the body kept and in its curl.
    const change = block.entries.find(
      (e) => e.endpoint === PASSWORD_CHANGE && e.caller === 'customer' && e.store === 'default',
    )!
    expect(change).toMatchObject({
      body: { currentPassword: '[redacted]', newPassword: '[redacted]' },
      schemaDocumentsBody: true,
    })

    const file = (name: string) => readFileSync(join(run.dir, 'reports', name), 'utf8')
    expect(run.stdout).toContain(`\n${block.text}\n`)
    expect(block.text).toMatch(
      /^Server errors: \d+ \(500 ×\d+\) at 2 operations — information only, never the verdict\.$/,
    )
    const md = file('summary.md')
    expect(md).toContain(`\n## Server errors (${block.answers})\n`)
    expect(md).toContain(
      `| \`${SELECTION}\` | admin | 500 | Internal Error. Details are available in Shop log file. Report ID: ${documented.reportId} | \`${documented.reportId}\` | \`inventoryRequest.stockId\``,
    )
    const html = file('report.html')
    expect(html).toContain('<section class="notes" id="server-errors" hidden></section>')
    const view = JSON.parse(/<script id="report-view" type="application\/json">(.*?)<\/script>/s.exec(html)![1]!) as {
      serverErrorCurls: string[]
    }
    const curl = view.serverErrorCurls[block.entries.indexOf(documented)]!
    expect(curl).toContain(`'${target.url}/rest/default/V1/inventory/source-selection-algorithm-result'`)
    expect(curl).toContain('"Authorization: Bearer $TOKEN"')
    expect(curl).toContain(`--data-raw '${JSON.stringify(documented.body)}'`)

    // No secret anywhere: the admins' passwords, the run's customers' (…aA1!) and the new ones it sets (…bB2#), nor a
    // token.
    const all = everythingWritten(run)
    for (const secret of [REFERENCE_ADMIN.password, REFERENCE_LIMITED_ADMIN.password]) expect(all).not.toContain(secret)
    expect(all).not.toMatch(/[A-Za-z0-9_-]{16}(aA1!|bB2#)/)
    expect(JSON.stringify(block)).not.toMatch(/authorization|bearer/i)
  })
})

describe('a run against a shop whose source selection answers every call with a server error', {
  timeout: 300_000,
}, () => {
  const closers: (() => Promise<void>)[] = []
  afterAll(async () => {
    for (const c of closers) await c()
  })

  it('fails nothing: the route is served, access and store-code are not judged for the server error, there alone', async () => {
    const target = await startReferenceTarget({ variants: ['source-selection-broken'] })
    closers.push(() => target.close())
    const run = await cli(['run', '--base-url', target.url, '--module', 'inventory-other'], {
      SHOP_ADMIN_USERNAME: target.admin.username,
      SHOP_ADMIN_PASSWORD: target.admin.password,
      ...limitedAdminEnv(target),
    })
    const r = run.report!
    expect(r.results.filter((x) => x.status === 'failed').map((x) => `${x.id}: ${x.message}`)).toEqual([])
    expect(run.status).toBe(0)
    const at = (check: string) => r.results.find((x) => x.id === `${SELECTION} › ${check}`)!
    expect(at('route')).toMatchObject({
      status: 'passed',
      message: expect.stringMatching(
        /^served: answered a server error \(500 "Internal Error\. Details are available in Shop log file\. Report ID: webapi-[0-9a-f]{13}"\)/,
      ),
    })
    expect(at('access')).toMatchObject({
      status: 'skipped',
      reason: 'server-error',
      details: { witness: 'admin', matrix: { none: { seen: 'refused' }, admin: { seen: 'no usable answer' } } },
    })
    expect(at('access').message).toMatch(
      /^not judged: the caller the spec admits \(admin token\) got a server error \(500 .*Report ID: webapi-[0-9a-f]{13}"\)/,
    )
    expect(at('store-code')).toMatchObject({ status: 'skipped', reason: 'server-error' })
    // Elsewhere the module judges as on the clean target: every rule that applies passed.
    const elsewhere = r.results.filter((x) => endpointText(x.endpoint) !== SELECTION && x.applicable !== false)
    expect(elsewhere.length).toBeGreaterThan(30)
    expect(elsewhere.filter((x) => x.status !== 'passed').map((x) => `${x.id}: ${x.status} ${x.reason ?? ''}`)).toEqual(
      [],
    )
  })
})
