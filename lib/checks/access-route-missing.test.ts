/**
 * A missing route is counted once, by the route check, in every mode: the access check leaves it not judged
 * (`route-missing`). In read-only mode a caller the run has no token for (no customer is registered) is not
 * sent; the callers that are sent all got the no-route answer, and that is the same rule as a full run's.
 * Against the reference target as `target --fault 'route-missing@GET /V1/directory/currency'`, with and
 * without `--read-only`.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { startReferenceTarget } from '../../reference-target/index.ts'
import { findRow } from '../spec/catalog/index.ts'
import { accessCheck } from './access.ts'
import { routeCheck } from './route.ts'
import { targetSessions } from './testing.ts'

const sessions = targetSessions()
afterAll(() => sessions.closeAll())

describe('an anonymous endpoint whose route is missing', () => {
  const row = findRow('GET', '/V1/directory/currency')!
  for (const mode of [[], ['--read-only']]) {
    it(`fails route and leaves access not judged (route-missing)${mode.length > 0 ? ', read-only' : ''}`, async () => {
      const s = await sessions.open(await startReferenceTarget({ faults: [{ name: 'route-missing', method: 'GET', path: row.path }] }), mode)
      expect((await routeCheck.run(row, s)).status).toBe('failed')
      const access = await accessCheck.run(row, s)
      expect({ status: access.status, reason: access.reason }).toEqual({ status: 'skipped', reason: 'route-missing' })
      expect(access.message).toMatch(/see the route check/)
    })
  }
})
