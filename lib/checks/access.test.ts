/**
 * The access check run against the reference target: clean, and under the fault switch that breaks its rule.
 * Its judgements on given answers (no target): access-answers.test.ts.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { FAULTS, startReferenceTarget, type ReferenceTarget } from '../../reference-target/index.ts'
import { CATALOG, findRow } from '../spec/catalog/index.ts'
import { NO_VALID_REQUEST } from '../setup/requests/index.ts'
import type { Session } from '../shop/session.ts'
import { accessCheck } from './access.ts'
import { byStatus, faultsBreaking, openSession, runOverCatalog } from './testing.ts'
import { endpointText } from '../spec/endpoint-id.ts'

describe('access check', () => {
  const closers: (() => Promise<void>)[] = []
  afterAll(async () => {
    for (const close of closers.reverse()) await close()
  })
  async function against(target: ReferenceTarget, argv: string[] = []): Promise<Session> {
    closers.push(() => target.close())
    const s = await openSession(target, argv)
    closers.push(() => s.close())
    return s
  }

  const accessFaults = faultsBreaking('access')
  // The one run against a target per fault switch is the CLI's (lib/cli/cli.test.ts, fault groups); here the first.
  for (const fault of accessFaults.slice(0, 1)) {
    it(`fails only the endpoint the ${fault} fault breaks`, async () => {
      const { method, path } = FAULTS[fault].defaultEndpoint
      const s = await against(await startReferenceTarget({ faults: [{ name: fault }] }))
      const verdicts = await runOverCatalog(accessCheck, s)
      expect(byStatus(verdicts)).toMatchObject({ failed: [endpointText({ method, path })], skipped: [] })
      const { matrix } = verdicts.get(endpointText({ method, path }))!.details as {
        matrix: Record<string, { ok: boolean | null }>
      }
      expect(Object.values(matrix).some((cell) => cell.ok === false)).toBe(true)
    })
  }

  // Issue 20: probes that cannot succeed cannot see a hole. Each of these endpoints checks its input after access
  // (an unknown id gets 404, an empty body 400, as from the admin), so a placeholder probe saw nothing there.
  const quiet = [
    { name: 'admin-open', method: 'GET', path: '/V1/cmsBlock/:blockId', what: 'an open admin read that takes an id' },
    { name: 'admin-open', method: 'POST', path: '/V1/cmsPage', what: 'an open admin write that validates its body' },
    {
      name: 'customer-token-on-admin',
      method: 'PUT',
      path: '/V1/cmsBlock/:id',
      what: 'a customer token accepted on an admin write',
    },
  ] as const
  for (const fault of quiet) {
    it(`catches ${fault.what} at that endpoint alone: the callers are sent a request the admin succeeds with`, async () => {
      const s = await against(await startReferenceTarget({ faults: [fault] }))
      const verdicts = await runOverCatalog(accessCheck, s)
      expect(byStatus(verdicts)).toMatchObject({ failed: [endpointText(fault)], skipped: [] })
      const v = verdicts.get(endpointText(fault))!
      expect(v.details).toMatchObject({ witnessed: true, matrix: { admin: { seen: 'accepted' } } })
      expect(v.message).toMatch(/let through \(200 /)
    })
  }

  // Issue 29.5: "an admin token also works" at a `mine` write, where the admin is sent a request whose data the shop
  // refuses (it can make nothing): a shop that refuses the admin token there fails access there, and only there.
  for (const fault of [
    { name: 'self-refuses-admin', ...FAULTS['self-refuses-admin'].defaultEndpoint },
    { name: 'self-refuses-admin', method: 'PUT', path: '/V1/customers/me/password' },
  ] as const) {
    it(`fails access where a mine write refuses the admin token (${endpointText(fault)}) and nowhere else`, async () => {
      const s = await against(await startReferenceTarget({ faults: [fault] }))
      const verdicts = await runOverCatalog(accessCheck, s)
      expect(byStatus(verdicts)).toMatchObject({ failed: [endpointText(fault)], skipped: [] })
      const v = verdicts.get(endpointText(fault))!
      expect(v.details).toMatchObject({
        witnessed: true,
        matrix: { customer: { ok: true }, admin: { expected: 'accept', seen: 'refused', ok: false } },
      })
      expect(v.message).toMatch(/admin token refused \(401 /)
    })
  }

  // Issue 29.6: a real shop opened to every caller assigned the product for the callers without a token, and the admin,
  // asked last with the same request, got 400 "Could not assign" — "not fully judged". The target refuses a repeated
  // assignment as that shop did: each refused caller whose answer the used-up request may explain is asked again with
  // one of its own, and each let-through is the failure on its own evidence.
  for (const method of ['POST', 'PUT'] as const) {
    it(`catches an open website assignment (${method}) whose repeat the target refuses, every refused caller let through`, async () => {
      const fault = { name: 'admin-open', method, path: '/V1/products/:sku/websites' } as const
      const s = await against(await startReferenceTarget({ faults: [fault] }))
      const verdicts = await runOverCatalog(accessCheck, s)
      expect(byStatus(verdicts)).toMatchObject({ failed: [endpointText(fault)], skipped: [] })
      const v = verdicts.get(endpointText(fault))!
      const refusedCallers = { ok: false, seen: 'accepted' }
      expect(v.details).toMatchObject({
        matrix: { none: refusedCallers, malformed: refusedCallers, customer: refusedCallers, admin: { ok: true } },
      })
    })
  }

  // Issue 20's bar: a target broken wide — every admin endpoint open to callers without a token, or to customer tokens
  // — fails access at 95 % of the admin endpoints at least; the others are the endpoints no valid request can be built
  // for.
  for (const name of ['admin-open', 'customer-token-on-admin'] as const) {
    it(`fails access at every admin endpoint a valid request can be built for under ${name}@*`, {
      timeout: 300_000,
    }, async () => {
      const s = await against(await startReferenceTarget({ faults: [{ name, everywhere: true }] }))
      const admin = CATALOG.filter((r) => r.access === 'admin')
      const verdicts = await runOverCatalog(accessCheck, s, admin)
      const caught = byStatus(verdicts).failed
      expect(caught.length / admin.length).toBeGreaterThanOrEqual(0.95)
      const missed = admin.map((r) => endpointText(r)).filter((id) => !caught.includes(id))
      for (const id of missed) expect(Object.keys(NO_VALID_REQUEST), id).toContain(id)
    })
  }

  it('on the clean target gets a success for the admitted caller at every restricted endpoint a valid request can be built for', {
    timeout: 300_000,
  }, async () => {
    const s = await against(await startReferenceTarget())
    const restricted = CATALOG.filter((r) => r.access !== 'anon')
    const verdicts = await runOverCatalog(accessCheck, s, restricted)
    expect(byStatus(verdicts)).toMatchObject({ failed: [], skipped: [] })
    const unwitnessed = [...verdicts]
      .filter(([, v]) => (v.details as { witnessed?: boolean }).witnessed !== true)
      .map(([id]) => id)
      .sort()
    expect(unwitnessed).toEqual(Object.keys(NO_VALID_REQUEST).sort())
  })

  // Issue 29: attaching a child rebuilds a configurable product's options with new ids (the platform's product save;
  // the reference target does the same): an option id read before it named nothing (a real 2.4.7-p7 shop: 500 on the
  // save, 404 on the read). The module's endpoints probed at once, the child's attachment among them.
  it('names the configurable option the shop holds now, whatever child was attached meanwhile', async () => {
    const s = await against(await startReferenceTarget())
    const rows = CATALOG.filter((r) => r.module === 'configurable-product')
    const verdicts = await runOverCatalog(accessCheck, s, rows)
    for (const id of [
      'PUT /V1/configurable-products/:sku/options/:id',
      'GET /V1/configurable-products/:sku/options/:id',
      'POST /V1/configurable-products/:sku/child',
    ]) {
      expect(verdicts.get(id), id).toMatchObject({
        status: 'passed',
        details: { witnessed: true, matrix: { admin: { seen: 'accepted' } } },
      })
    }
  })

  it("probes the token-revoking endpoint with a customer of its own, so the run's customer keeps working", async () => {
    const s = await against(await startReferenceTarget())
    const revoke = await accessCheck.run(findRow('POST', '/V1/integration/customer/revoke-customer-token')!, s)
    expect(revoke.status).toBe('passed')
    const me = await accessCheck.run(findRow('GET', '/V1/customers/me')!, s)
    expect(me.status).toBe('passed')
  })
})
