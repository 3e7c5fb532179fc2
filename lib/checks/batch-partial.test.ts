/**
 * The batch-partial check run against the reference target: clean, and under the fault switch that breaks its rule.
 * Its judgements on given answers (no target): batch-partial-answers.test.ts.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { startReferenceTarget, type FaultName, type ReferenceTarget } from '../../reference-target/index.ts'
import { CATALOG } from '../spec/catalog/index.ts'
import type { Session } from '../shop/session.ts'
import { BATCH_ROWS, batchPartialCheck } from './batch-partial.ts'
import { byStatus, openSession, rowsJudgedBy, runOverCatalog } from './testing.ts'

// The rows it judges are the batch rows (batch-partial-answers.test.ts).
const batchRows = rowsJudgedBy(batchPartialCheck)

describe('batch-partial check', () => {
  const closers: (() => Promise<void>)[] = []
  afterAll(async () => {
    for (const close of closers.reverse()) await close()
  })
  async function against(target: ReferenceTarget): Promise<Session> {
    closers.push(() => target.close())
    const s = await openSession(target)
    closers.push(() => s.close())
    return s
  }

  it('passes all 12 rows of the clean reference target, judging only the calls it made', async () => {
    const s = await against(await startReferenceTarget())
    const verdicts = await runOverCatalog(batchPartialCheck, s)
    const status = byStatus(verdicts)
    expect(status.failed).toEqual([])
    expect(status.passed).toEqual([...BATCH_ROWS].sort())
    for (const id of status.skipped) expect(verdicts.get(id)!.message).toBe('not a batch price operation')
    expect(status.skipped).toHaveLength(CATALOG.length - 12)

    const base = verdicts.get('POST /V1/products/base-prices')!
    expect(base.message).toMatch(
      /^update of 2 valid and 3 invalid items \(unknown sku, invalid price, unknown store id\): every invalid item reported/,
    )
    // mixed call, read-back, all-valid call — no set-up call among them
    expect(
      base.exchanges.map((x) => `${x.request.method} ${new URL(x.request.url).pathname.replace(/^\/rest\/[^/]+/, '')}`),
    ).toEqual([
      'POST /V1/products/base-prices',
      'POST /V1/products/base-prices-information',
      'POST /V1/products/base-prices',
    ])
    expect(verdicts.get('PUT /V1/products/tier-prices')!.message).toMatch(
      /replace of 2 valid and 6 invalid items .*the tiers not in the call gone/,
    )
    expect(verdicts.get('POST /V1/products/cost-information')!.exchanges).toHaveLength(2)
  })

  const FAULT_CASES: [FaultName, string, RegExp][] = [
    [
      'batch-whole-failure',
      'POST /V1/products/base-prices',
      /^mixed call: the call failed as a whole instead of reporting its invalid items: answered 400 "Could not save Prices\."/,
    ],
    [
      'batch-valid-not-applied',
      'POST /V1/products/cost',
      /^valid item 0 \{"sku":"sc-[^"]+-batch-cost-valid-1-[0-9a-z]{8}","cost":[\d.]+,"store_id":0\} was not stored: read back nothing for sku sc-[^ ]+-batch-cost-valid-1-[0-9a-z]{8}; valid item 2 /,
    ],
    [
      'batch-nonempty-all-valid',
      'POST /V1/products/special-price',
      /^all-valid call \[.*: all items are valid, so the answer must be \[\] but it has 1 entry: \[\{"message":"Success"/,
    ],
    [
      'information-accepts-unknown-sku',
      'POST /V1/products/cost-information',
      /^the target dropped the unknown sku instead of raising: a call naming the unknown sku sc-[^ ]+-batch-cost-information-no-such-sku-[0-9a-z]{8} beside the known sc-[^ ]+ answered 200 \[/,
    ],
  ]
  // A run against a target per rule's fault is the CLI's (lib/cli/cli.test.ts, fault groups); the judgements of each
  // are proven on recorded answers (batch-partial-answers.test.ts). Here the first.
  for (const [fault, endpoint, message] of FAULT_CASES.slice(0, 1)) {
    it(`fails only ${endpoint} under the ${fault} fault`, async () => {
      const s = await against(await startReferenceTarget({ faults: [{ name: fault }] }))
      const verdicts = await runOverCatalog(batchPartialCheck, s, batchRows)
      expect(byStatus(verdicts)).toEqual({
        passed: BATCH_ROWS.filter((id) => id !== endpoint).sort(),
        failed: [endpoint],
        skipped: [],
      })
      expect(verdicts.get(endpoint)!.message).toMatch(message)
    })
  }

  it('is not judged, never passed, when the set-up cannot create its products', async () => {
    const s = await against(
      await startReferenceTarget({ faults: [{ name: 'route-missing', method: 'POST', path: '/V1/products' }] }),
    )
    const verdicts = await runOverCatalog(batchPartialCheck, s, batchRows)
    expect(byStatus(verdicts).skipped).toEqual([...BATCH_ROWS].sort())
    expect(verdicts.get('POST /V1/products/cost')!.message).toMatch(
      /^not judged: set-up step "create product batch cost [^"]+" \(POST \/V1\/products\) answered 404/,
    )
  })
})

// The real instance's recorded answers, fed to the check's judging functions directly (no replay server):
// each recorded request's items and answer, invalid items marked by their index in the request.

// What the read-back must show, on hand-made information answers (no fault switch breaks these rules).
