/**
 * The store-code check run against the reference target: clean, and under the fault switch that breaks its rule.
 * Its judgements on given answers (no target): store-code-answers.test.ts.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { FAULTS, startReferenceTarget } from '../../reference-target/index.ts'
import { storeCodeCheck } from './store-code.ts'
import { byStatus, runOverCatalog, targetSessions } from './testing.ts'
import { endpointText } from '../spec/endpoint-id.ts'

const sessions = targetSessions()
afterAll(() => sessions.closeAll())

describe('store-code check', () => {
  // The one run against a target: the fault switch fails the check at its endpoint, and nowhere else.
  it('fails only the endpoint the store-code-ignored fault breaks', async () => {
    const { method, path } = FAULTS['store-code-ignored'].defaultEndpoint
    const s = await sessions.open(await startReferenceTarget({ faults: [{ name: 'store-code-ignored' }] }))
    const verdicts = await runOverCatalog(storeCodeCheck, s)
    expect(byStatus(verdicts)).toMatchObject({ failed: [endpointText({ method, path })], skipped: [] })
    expect(verdicts.get(endpointText({ method, path }))!.message).toMatch(
      /under store code "all" the endpoint answered like the target's no-route answer/,
    )
  })
})
