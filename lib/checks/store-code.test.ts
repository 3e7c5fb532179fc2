import { afterAll, describe, expect, it } from 'vitest'
import { FAULTS, startReferenceTarget, type ReferenceTarget } from '../../reference-target/index.ts'
import { startObservedTarget, type ObservedTarget } from '../../fixtures/observed-target/index.ts'
import { CATALOG, findRow } from '../spec/catalog/index.ts'
import type { Session } from '../shop/session.ts'
import { storeCodeCheck } from './store-code.ts'
import { byStatus, NOT_ON_247, openSession, runOverCatalog } from './testing.ts'
import { endpointText } from '../spec/endpoint-id.ts'

describe('store-code check', () => {
  const closers: (() => Promise<void>)[] = []
  afterAll(async () => {
    for (const close of closers.reverse()) await close()
  })
  async function against(target: ReferenceTarget | ObservedTarget, argv: string[] = []): Promise<Session> {
    closers.push(() => target.close())
    const s = await openSession(target, argv)
    closers.push(() => s.close())
    return s
  }

  it('passes every endpoint of the clean reference target', async () => {
    const s = await against(await startReferenceTarget())
    expect(byStatus(await runOverCatalog(storeCodeCheck, s)).passed).toHaveLength(CATALOG.length)
  })

  it('fails only the endpoint the store-code-ignored fault breaks', async () => {
    const { method, path } = FAULTS['store-code-ignored'].defaultEndpoint
    const s = await against(await startReferenceTarget({ faults: [{ name: 'store-code-ignored' }] }))
    const verdicts = await runOverCatalog(storeCodeCheck, s)
    expect(byStatus(verdicts)).toMatchObject({ failed: [endpointText({ method, path })], skipped: [] })
    expect(verdicts.get(endpointText({ method, path }))!.message).toMatch(/under store code "all" the endpoint answered like the target's no-route answer/)
  })

  it('fails an endpoint served under the second store code as under an unknown one', async () => {
    // The reference target knows only "default" and "all": a second store code it does not serve is unknown to it.
    // A run with such a code stops in the preflight (a setting error, lib/shop/store-codes.ts); the check's rule
    // is for an endpoint answering so where the run goes on, so the session is opened first and the code set after.
    const s = await against(await startReferenceTarget())
    s.seed.secondStoreCode = 'french'
    const v = await storeCodeCheck.run(findRow('GET', '/V1/directory/currency')!, s)
    expect(v.status).toBe('failed')
    expect(v.message).toMatch(/answered as for an unknown store code \(400 "Specified request cannot be processed\."\)/)
  })

  it('leaves an endpoint whose route is missing to the route check', async () => {
    const s = await against(await startReferenceTarget({ faults: [{ name: 'route-missing', method: 'GET', path: '/V1/modules' }] }))
    expect(byStatus(await runOverCatalog(storeCodeCheck, s))).toMatchObject({ failed: [], skipped: ['GET /V1/modules'] })
  })

  it('does not judge an endpoint that answers a server error or a body that is not JSON, where it used to pass it as "served"', async () => {
    const faults = ['server-error-json', 'server-error', 'html-body', 'empty-body'] as const
    const s = await against(await startReferenceTarget({ faults: faults.map((name) => ({ name })) }))
    const rows = faults.map((f) => findRow(FAULTS[f].defaultEndpoint.method, FAULTS[f].defaultEndpoint.path)!)
    const verdicts = await runOverCatalog(storeCodeCheck, s, rows)
    expect(byStatus(verdicts)).toMatchObject({ passed: [], failed: [] })
    for (const v of verdicts.values()) expect(v.message).toMatch(/^not judged: under "default" the endpoint gave (a server error|a body that is not JSON|an empty body) .*see the route check/)
  })

  it('agrees with a real 2.4.7 instance, which serves "all" like "default"', async () => {
    const s = await against(await startObservedTarget())
    const status = byStatus(await runOverCatalog(storeCodeCheck, s))
    expect(status.failed).toEqual([])
    expect(status.skipped).toEqual([...NOT_ON_247].sort())
  })
})
