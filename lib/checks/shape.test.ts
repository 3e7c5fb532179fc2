import { afterAll, describe, expect, it } from 'vitest'
import { FAULTS, startReferenceTarget, type FaultName } from '../../fixtures/reference-target/index.ts'
import { CATALOG, findRow } from '../spec/catalog/index.ts'
import type { Session } from '../target/session.ts'
import { scenarioFor } from './scenario-call.ts'
import { shapeCheck } from './shape.ts'
import { byStatus, openSession, runOverCatalog } from './testing.ts'

const SHAPE_ROWS = CATALOG.filter((r) => shapeCheck.appliesTo(r) === true)

describe('shape check', () => {
  const closers: (() => Promise<void>)[] = []
  afterAll(async () => {
    for (const close of closers.reverse()) await close()
  })
  async function against(faults: { name: FaultName }[] = []): Promise<Session> {
    const target = await startReferenceTarget({ faults })
    closers.push(() => target.close())
    const s = await openSession(target)
    closers.push(() => s.close())
    return s
  }

  it('applies to every endpoint whose response the spec gives, each with a scenario; others are "not shown"', () => {
    expect(SHAPE_ROWS).toHaveLength(19)
    for (const row of SHAPE_ROWS) expect(scenarioFor(row), `${row.method} ${row.path}`).toBeDefined()
    expect(shapeCheck.appliesTo(findRow('GET', '/V1/carts/:cartId')!)).toMatch(/^not shown: /)
  })

  it('passes every such endpoint of the clean reference target', async () => {
    const verdicts = await runOverCatalog(shapeCheck, await against(), SHAPE_ROWS)
    expect(byStatus(verdicts)).toMatchObject({ failed: [], skipped: [] })
    expect(verdicts.get('GET /V1/creditmemo/:id')!.message).toMatch(/^the answer is CreditmemoInterface/)
  })

  const faults = (Object.keys(FAULTS) as FaultName[]).filter((f) => FAULTS[f].breaks === 'shape')
  it('has a fault switch for each kind of deviation', () => expect([...faults].sort()).toEqual(['array-as-object', 'number-as-string', 'wrong-return-type']))
  for (const fault of faults) {
    it(`fails only the endpoint the ${fault} fault breaks, naming the field`, async () => {
      const { method, path } = FAULTS[fault].defaultEndpoint
      const verdicts = await runOverCatalog(shapeCheck, await against([{ name: fault }]), SHAPE_ROWS)
      expect(byStatus(verdicts)).toMatchObject({ failed: [`${method} ${path}`], skipped: [] })
      expect(verdicts.get(`${method} ${path}`)!.message).toMatch(/^the answer is not .*: .*expected/)
    })
  }
})
