import { afterAll, describe, expect, it } from 'vitest'
import { FAULTS, startReferenceTarget, type FaultName, type ReferenceTarget } from '../../fixtures/reference-target/index.ts'
import { startObservedTarget, type ObservedTarget } from '../../fixtures/observed-target/index.ts'
import { CATALOG, findRow } from '../spec/catalog/index.ts'
import type { Session } from '../target/session.ts'
import { accessCheck } from './access.ts'
import { byStatus, NOT_ON_247, openSession, runOverCatalog } from './testing.ts'

describe('access check', () => {
  const closers: (() => Promise<void>)[] = []
  afterAll(async () => {
    for (const close of closers.reverse()) await close()
  })
  async function against(target: ReferenceTarget | ObservedTarget): Promise<Session> {
    closers.push(() => target.close())
    const s = await openSession(target)
    closers.push(() => s.close())
    return s
  }

  it('passes every endpoint of the clean reference target and shows the matrix', async () => {
    const s = await against(await startReferenceTarget())
    const verdicts = await runOverCatalog(accessCheck, s)
    expect(byStatus(verdicts).passed).toHaveLength(CATALOG.length)
    expect(verdicts.get('GET /V1/modules')!.details).toMatchObject({
      accessClass: 'admin',
      matrix: {
        none: { expected: 'refuse', seen: 'refused', ok: true },
        malformed: { expected: 'refuse', seen: 'refused', ok: true },
        customer: { expected: 'refuse', seen: 'refused', ok: true },
        admin: { expected: 'accept', seen: 'accepted', ok: true },
      },
    })
    expect(verdicts.get('GET /V1/directory/currency')!.details).toMatchObject({ matrix: { none: { expected: 'accept', ok: true }, customer: { expected: 'not stated', ok: null } } })
  })

  const accessFaults = (Object.keys(FAULTS) as FaultName[]).filter((f) => FAULTS[f].breaks === 'access')
  it('covers every access fault switch of the reference target', () => {
    expect([...accessFaults].sort()).toEqual(['admin-open', 'anon-requires-token', 'any-bearer-accepted', 'customer-token-on-admin', 'self-refuses-customer'])
  })
  for (const fault of accessFaults) {
    it(`fails only the endpoint the ${fault} fault breaks`, async () => {
      const { method, path } = FAULTS[fault].defaultEndpoint
      const s = await against(await startReferenceTarget({ faults: [{ name: fault }] }))
      const verdicts = await runOverCatalog(accessCheck, s)
      expect(byStatus(verdicts)).toMatchObject({ failed: [`${method} ${path}`], skipped: [] })
      const { matrix } = verdicts.get(`${method} ${path}`)!.details as { matrix: Record<string, { ok: boolean | null }> }
      expect(Object.values(matrix).some((cell) => cell.ok === false)).toBe(true)
    })
  }

  it('names the wrong cells in the message', async () => {
    const s = await against(await startReferenceTarget({ faults: [{ name: 'admin-open', method: 'GET', path: '/V1/modules' }] }))
    const v = await accessCheck.run(findRow('GET', '/V1/modules')!, s)
    expect(v.message).toMatch(/^admin endpoint: no token let through \(\d{3}.*\) where the spec says refuse; malformed token let through .*; customer token let through/)
    expect(v.exchanges).toHaveLength(4)
  })

  it('does not judge an endpoint whose route is missing, and does not pass it either', async () => {
    const s = await against(await startReferenceTarget({ faults: [{ name: 'route-missing', method: 'GET', path: '/V1/modules' }] }))
    const status = byStatus(await runOverCatalog(accessCheck, s))
    expect(status.skipped).toEqual(['GET /V1/modules'])
    expect(status.failed).toEqual([])
  })

  it('agrees with a real 2.4.7 instance: 271 endpoints follow their class, 7 are not served', async () => {
    const s = await against(await startObservedTarget())
    const status = byStatus(await runOverCatalog(accessCheck, s))
    expect(status.failed).toEqual([])
    expect(status.skipped).toEqual([...NOT_ON_247].sort())
    expect(status.passed).toHaveLength(271)
  })

  it('probes the token-revoking endpoint with a customer of its own, so the run\'s customer keeps working', async () => {
    const s = await against(await startReferenceTarget())
    const revoke = await accessCheck.run(findRow('POST', '/V1/integration/customer/revoke-customer-token')!, s)
    expect(revoke.status).toBe('passed')
    const me = await accessCheck.run(findRow('GET', '/V1/customers/me')!, s)
    expect(me.status).toBe('passed')
  })
})
