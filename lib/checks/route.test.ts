import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startReferenceTarget, type ReferenceTarget } from '../../reference-target/index.ts'
import { startObservedTarget, type ObservedTarget } from '../../fixtures/observed-target/index.ts'
import { CATALOG, findRow } from '../spec/catalog/index.ts'
import type { Session } from '../shop/session.ts'
import { routeCheck } from './route.ts'
import { byStatus, NOT_ON_247, openSession, runOverCatalog } from './testing.ts'
import { ANSWER_DEADLINE_MS } from '../../test-setup/deadlines.ts'
import { endpointText } from '../spec/endpoint-id.ts'


describe('route check', () => {
  const targets: { close(): Promise<void> }[] = []
  const sessions: Session[] = []
  afterAll(async () => {
    await Promise.all(sessions.map((s) => s.close()))
    await Promise.all(targets.map((t) => t.close()))
  })
  async function against(target: ReferenceTarget | ObservedTarget): Promise<Session> {
    targets.push(target)
    const s = await openSession(target)
    sessions.push(s)
    return s
  }

  it('passes every endpoint of the clean reference target', async () => {
    const s = await against(await startReferenceTarget())
    expect(byStatus(await runOverCatalog(routeCheck, s))).toEqual({ passed: CATALOG.map((r) => endpointText(r)).sort(), failed: [], skipped: [] })
  })

  for (const fault of ['route-missing', 'wrong-method'] as const) {
    it(`fails only the endpoint the ${fault} fault breaks`, async () => {
      const s = await against(await startReferenceTarget({ faults: [{ name: fault, method: 'GET', path: '/V1/carts/licence/list' }] }))
      const verdicts = await runOverCatalog(routeCheck, s)
      expect(byStatus(verdicts).failed).toEqual(['GET /V1/carts/licence/list'])
      expect(verdicts.get('GET /V1/carts/licence/list')!.message).toMatch(/answered like the target's no-route answer \(404 "Request does not match any route\."\)/)
    })
  }

  it('fails exactly the 7 endpoints a real 2.4.7 instance does not serve', async () => {
    const s = await against(await startObservedTarget())
    const status = byStatus(await runOverCatalog(routeCheck, s))
    expect(status.failed).toEqual([...NOT_ON_247].sort())
    expect(status.passed).toHaveLength(271)
  })

  it('uses path aliases the target declares, and fails without them', async () => {
    const target = await startReferenceTarget({ vendorPaths: true })
    targets.push(target)
    const plain = await openSession(target)
    const aliased = await openSession(target, ['--path-alias', '/V1/stockmedia=/V1/adobestock'])
    sessions.push(plain, aliased)
    const row = findRow('GET', '/V1/stockmedia/asset/list')!
    expect((await routeCheck.run(row, plain)).status).toBe('failed')
    const v = await routeCheck.run(row, aliased)
    expect(v.status).toBe('passed')
    expect(v.details).toMatchObject({ path: '/V1/adobestock/asset/list' })
  })

  // Issue 21: a slow or unreachable shop is not a failing one — but silence never passes either.
  it('does not judge, and never passes, when the target stops answering', async () => {
    const target = await startReferenceTarget()
    // A refused connection, not a deadline, must end the request: a loaded machine may see both at once.
    const s = await openSession(target, ['--timeout-ms', String(ANSWER_DEADLINE_MS)])
    sessions.push(s)
    await target.close()
    const v = await routeCheck.run(findRow('GET', '/V1/modules')!, s)
    // No answer, or (after the valid request's set-up got none either) a target found gone.
    expect(v).toMatchObject({ status: 'skipped', reason: expect.stringMatching(/^(no-answer|target-gone)$/) })
    expect(v.message).toMatch(/^not judged: no answer from GET \/V1\/modules: (connection failed|not sent: the target stopped answering)/)
    // A read is asked twice before nothing is judged on it (unless the target is found gone by then).
    if (v.reason === 'no-answer') expect(v.exchanges[0]!.note).toMatch(/^asked again after no answer/)
  })

  it('fails every endpoint of a target that answers impossible paths alike', async () => {
    // Tokens work, but every other path gets the same 200 {}: nothing shows that any route exists.
    const server = createServer((req, res) => {
      res.setHeader('content-type', 'application/json')
      res.end(req.url!.endsWith('/token') ? JSON.stringify(`tok-${Math.random()}-abcdefgh`) : req.url!.endsWith('/V1/customers') && req.method === 'POST' ? '{"id":1}' : '{}')
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    targets.push({ close: () => new Promise((r) => server.close(() => r())) })
    const s = await openSession({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, admin: { username: 'a', password: 'b-123456' } })
    sessions.push(s)
    const status = byStatus(await runOverCatalog(routeCheck, s))
    // Only the three calls it answers differently show a route.
    expect(status.passed).toEqual(['POST /V1/customers', 'POST /V1/integration/admin/token', 'POST /V1/integration/customer/token'])
    expect(status.failed).toHaveLength(CATALOG.length - 3)
  })
})
