/**
 * The route check run against the reference target: clean, and under the fault switch that breaks its rule.
 * Its judgements on given answers (no target): route-answers.test.ts.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { startReferenceTarget } from '../../reference-target/index.ts'
import { routeCheck } from './route.ts'
import { byStatus, runOverCatalog, targetSessions } from './testing.ts'

const sessions = targetSessions()
afterAll(() => sessions.closeAll())

describe('route check', () => {
  // The one run against a target: the fault switch fails the check at its endpoint, and nowhere else.
  it('fails only the endpoint the route-missing fault breaks', async () => {
    const s = await sessions.open(
      await startReferenceTarget({
        faults: [{ name: 'route-missing', method: 'GET', path: '/V1/carts/licence/list' }],
      }),
    )
    const verdicts = await runOverCatalog(routeCheck, s)
    expect(byStatus(verdicts)).toMatchObject({ failed: ['GET /V1/carts/licence/list'], skipped: [] })
    expect(verdicts.get('GET /V1/carts/licence/list')!.message).toMatch(
      /answered like the target's no-route answer \(404 "Request does not match any route\."\)/,
    )
  })
})
