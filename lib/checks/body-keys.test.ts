/**
 * The body-keys check run against the reference target: clean, and under the fault switch that breaks its rule.
 * Its judgements on given answers (no target): body-keys-answers.test.ts.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { FAULTS, startReferenceTarget, type FaultName } from '../../reference-target/index.ts'
import type { Session } from '../shop/session.ts'
import { bodyKeysCheck } from './body-keys.ts'
import { byStatus, faultsBreaking, openSession, rowsJudgedBy, runOverCatalog } from './testing.ts'
import { endpointText } from '../spec/endpoint-id.ts'

const BODY_ROWS = rowsJudgedBy(bodyKeysCheck)

describe('body-keys check', () => {
  const closers: (() => Promise<void>)[] = []
  afterAll(async () => {
    for (const close of closers.reverse()) await close()
  })
  async function against(faults: { name: FaultName }[] = [], env: Record<string, string> = {}): Promise<Session> {
    const target = await startReferenceTarget({ faults })
    closers.push(() => target.close())
    const s = await openSession(target, [], env)
    closers.push(() => s.close())
    return s
  }

  const faults = faultsBreaking('body-keys')
  // The one run against a target: a fault switch fails the check at its endpoint, and nowhere else (the others:
  // lib/cli/cli.test.ts).
  for (const fault of faults.filter((f) => FAULTS[f].verdict === undefined).slice(0, 1)) {
    it(`fails only the endpoint the ${fault} fault breaks`, async () => {
      const { method, path } = FAULTS[fault].defaultEndpoint
      const verdicts = await runOverCatalog(bodyKeysCheck, await against([{ name: fault }]), BODY_ROWS)
      expect(byStatus(verdicts)).toMatchObject({ failed: [endpointText({ method, path })], skipped: [] })
    })
  }
})
