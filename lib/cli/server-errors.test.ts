/**
 * The server errors a whole run meets, end to end through `shop-conformance run` (issue 29, point 1): a reference
 * target answering 500 at the source selection (whose body its published schema documents) and at a customer's
 * password change (whose body holds two passwords). Each request the shop answered so is listed in report.json (valid
 * against its JSON Schema), summary.md and report.html, with what a vendor needs to repeat it — and no secret.
 * That they are never the verdict: the schema-broken run of extensions.test.ts (nothing fails, it conforms, exit 0).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { REFERENCE_ADMIN, REFERENCE_LIMITED_ADMIN, startReferenceTarget } from '../../reference-target/index.ts'
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
    const target = await startReferenceTarget({ faults: [{ name: 'server-error-json', ...at(SELECTION) }, { name: 'server-error', ...at(PASSWORD_CHANGE) }] })
    closers.push(() => target.close())
    const run = await cli(['run', '--base-url', target.url, '--module', 'inventory-other,customer'], { SHOP_ADMIN_USERNAME: target.admin.username, SHOP_ADMIN_PASSWORD: target.admin.password, ...limitedAdminEnv(target) })
    const r = run.report!
    const block = r.serverErrors!
    expect(serverErrorsProblems(block)).toEqual([])
    expect(block.operations).toBe(2)
    expect(block.answers).toBe(block.entries.reduce((n, e) => n + e.count, 0))

    // The valid request of the source selection, as the admin sent it: the body the shop's schema documents.
    const documented = block.entries.find((e) => e.endpoint === SELECTION && e.caller === 'admin' && e.store === 'default')!
    expect(documented).toMatchObject({
      method: 'POST',
      origin: 'spec',
      path: '/V1/inventory/source-selection-algorithm-result',
      body: { inventoryRequest: { stock_id: 1, items: [{ qty: 1 }] }, algorithmCode: 'priority' },
      status: 500,
      reportId: expect.stringMatching(/^webapi-[0-9a-f]{13}$/),
      bodyKeys: ['inventoryRequest.stock_id', 'inventoryRequest.items[].sku', 'inventoryRequest.items[].qty', 'algorithmCode'],
      schemaDocumentsBody: true,
      results: expect.arrayContaining([`${SELECTION} › route`]),
    })
    // Every caller the checks sent it as, each its own entry; the worker's requests all reached the run's list.
    expect(new Set(block.entries.filter((e) => e.endpoint === SELECTION).map((e) => e.caller))).toEqual(new Set(['admin', 'none', 'malformed', 'customer']))
    for (const result of r.results.filter((x) => x.exchanges.some((e) => (e.response?.status ?? 0) >= 500))) {
      expect(block.entries.some((e) => e.results?.includes(result.id)), result.id).toBe(true)
    }
    // A customer's password change: its passwords redacted in the body kept and in its curl.
    const change = block.entries.find((e) => e.endpoint === PASSWORD_CHANGE && e.caller === 'customer' && e.store === 'default')!
    expect(change).toMatchObject({ body: { currentPassword: '[redacted]', newPassword: '[redacted]' }, schemaDocumentsBody: true })

    const file = (name: string) => readFileSync(join(run.dir, 'reports', name), 'utf8')
    expect(run.stdout).toContain(`\n${block.text}\n`)
    expect(block.text).toMatch(/^Server errors: \d+ \(500 ×\d+\) at 2 operations — information only, never the verdict\.$/)
    const md = file('summary.md')
    expect(md).toContain(`\n## Server errors (${block.answers})\n`)
    expect(md).toContain(`| \`${SELECTION}\` | admin | 500 | Internal Error. Details are available in Shop log file. Report ID: ${documented.reportId} | \`${documented.reportId}\` | \`inventoryRequest.stock_id\``)
    const html = file('report.html')
    expect(html).toContain('<section class="notes" id="server-errors" hidden></section>')
    const view = JSON.parse(/<script id="report-view" type="application\/json">(.*?)<\/script>/s.exec(html)![1]!) as { serverErrorCurls: string[] }
    const curl = view.serverErrorCurls[block.entries.indexOf(documented)]!
    expect(curl).toContain(`'${target.url}/rest/default/V1/inventory/source-selection-algorithm-result'`)
    expect(curl).toContain('"Authorization: Bearer $TOKEN"')
    expect(curl).toContain(`--data-raw '${JSON.stringify(documented.body)}'`)

    // No secret anywhere: the admins' passwords, the run's customers' (…aA1!) and the new ones it sets (…bB2#), nor a token.
    const all = everythingWritten(run)
    for (const secret of [REFERENCE_ADMIN.password, REFERENCE_LIMITED_ADMIN.password]) expect(all).not.toContain(secret)
    expect(all).not.toMatch(/[A-Za-z0-9_-]{16}(aA1!|bB2#)/)
    expect(JSON.stringify(block)).not.toMatch(/authorization|bearer/i)
  })
})
