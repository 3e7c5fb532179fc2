/**
 * The shape check run against the reference target: clean, and under the fault switch that breaks its rule.
 * Its judgements on given answers (no target): shape-answers.test.ts.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { FAULTS, startReferenceTarget, type FaultSwitch } from '../../reference-target/index.ts'
import type { Session } from '../shop/session.ts'
import { shapeCheck } from './shape.ts'
import { byStatus, faultsBreaking, openSession, rowsJudgedBy, runOverCatalog } from './testing.ts'
import { endpointText } from '../spec/endpoint-id.ts'

const SHAPE_ROWS = rowsJudgedBy(shapeCheck)

describe('shape check', () => {
  const closers: (() => Promise<void>)[] = []
  afterAll(async () => {
    for (const close of closers.reverse()) await close()
  })
  async function against(faults: FaultSwitch[] = []): Promise<Session> {
    const target = await startReferenceTarget({ faults })
    closers.push(() => target.close())
    const s = await openSession(target)
    closers.push(() => s.close())
    return s
  }

  const faults = faultsBreaking('shape')
  // The one run against a target: a fault switch fails the check at its endpoint, and nowhere else (the others:
  // lib/cli/cli.test.ts).
  for (const fault of faults.slice(0, 1)) {
    it(`fails only the endpoint the ${fault} fault breaks, naming the field`, async () => {
      const { method, path } = FAULTS[fault].defaultEndpoint
      const verdicts = await runOverCatalog(shapeCheck, await against([{ name: fault }]), SHAPE_ROWS)
      expect(byStatus(verdicts)).toMatchObject({ failed: [endpointText({ method, path })], skipped: [] })
      expect(verdicts.get(endpointText({ method, path }))!.message).toMatch(
        /^the answer is not .*: .*(expected|carries no value at all)/,
      )
    })
  }
})
