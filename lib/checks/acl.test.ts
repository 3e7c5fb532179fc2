/**
 * The acl check run against the reference target: clean, and under the fault switch that breaks its rule.
 * Its judgements on given answers (no target): acl-answers.test.ts.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { FAULTS, startReferenceTarget } from '../../reference-target/index.ts'
import { findRow } from '../spec/catalog/index.ts'
import { aclCheck } from './acl.ts'
import { byStatus, limitedAdminEnv, rowsJudgedBy, runOverCatalog, targetSessions } from './testing.ts'
import { endpointText } from '../spec/endpoint-id.ts'

describe('acl check', () => {
  const sessions = targetSessions()
  afterAll(() => sessions.closeAll())

  // The one run against a target: the fault switch fails the check at its endpoint, and nowhere else.
  it('fails only the endpoint where the target ignores the resource (acl-ignored)', async () => {
    const { method, path } = FAULTS['acl-ignored'].defaultEndpoint
    const target = await startReferenceTarget({ faults: [{ name: 'acl-ignored' }] })
    const s = await sessions.open(target, [], limitedAdminEnv(target))
    const verdicts = await runOverCatalog(aclCheck, s, rowsJudgedBy(aclCheck))
    expect(byStatus(verdicts)).toMatchObject({
      failed: [`${endpointText({ method: method, path: path })}`],
      skipped: [],
    })
    expect(verdicts.get(`${endpointText({ method: method, path: path })}`)!.message).toMatch(
      /^the limited admin \(clerk\), whose role lacks Shop_\w+::\w+, was let through \(2\d\d .*\) where the token must carry Shop_\w+::\w+$/,
    )
  })

  // Issue 20: a write is sent a valid request (an item of a cart of the run's own), so a target that ignores the
  // resource on a write that checks its input first is caught; a placeholder call got 404 there and was not judged.
  it('catches the resource ignored on a write that validates its input: the limited admin gets the valid request', async () => {
    const target = await startReferenceTarget({
      faults: [{ name: 'acl-ignored', method: 'DELETE', path: '/V1/carts/:cartId/items/:itemId' }],
    })
    const s = await sessions.open(target, [], limitedAdminEnv(target))
    const v = await aclCheck.run(findRow('DELETE', '/V1/carts/:cartId/items/:itemId')!, s)
    expect(v).toMatchObject({ status: 'failed', details: { seen: 'accepted', admin: { seen: 'accepted' } } })
  })
})
