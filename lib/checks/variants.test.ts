/**
 * A variant of the reference target is a conforming platform that reads the spec another way, or has a real
 * shop's limits (reference-target/variants.ts). The suite must judge each as it judges the plain
 * target: among the detail-table checks (body-keys, shape, batch-partial) and the workflows, nothing failed and
 * nothing left unjudged.
 */
import { afterAll, describe, expect, it } from 'vitest'
import {
  REFERENCE_INTEGRATION_TOKENS,
  startReferenceTarget,
  VARIANTS,
  type VariantName,
} from '../../reference-target/index.ts'
import { CATALOG } from '../spec/catalog/index.ts'
import { WORKFLOWS } from '../workflows/index.ts'
import { describeOutcomes, runWorkflow } from '../workflows/run-steps.ts'
import { batchPartialCheck } from './batch-partial.ts'
import { bodyKeysCheck } from './body-keys.ts'
import { shapeCheck } from './shape.ts'
import { openSession, runOverCatalog } from './testing.ts'
import { ANSWER_DEADLINE_MS, LATE_ANSWER_MS } from '../../test-setup/deadlines.ts'

const DETAIL_CHECKS = [bodyKeysCheck, shapeCheck, batchPartialCheck]

/** Every detail-table check over the rows it applies to, and every workflow, on a target of the variant. */
async function judgeVariant(variant: VariantName, closers: (() => Promise<void>)[]): Promise<void> {
  // The late answers come a wide margin after a deadline a loaded machine meets (test-setup/deadlines.ts).
  const late = variant === 'late-creation' || variant === 'late-order'
  // A busy shop's heavy writes take a twentieth of the deadline (a tenth of 5 s): none may time out, on a loaded
  // machine too. A shop slowed by other tenants likewise here.
  const busy = variant === 'busy-shop' || variant === 'slow-tenants'
  // A registration worked on for half a second, well inside the deadline: slow, never late.
  const slowRegistration = variant === 'slow-registration'
  const target = await startReferenceTarget({
    variants: [variant],
    ...(late ? { slowMs: LATE_ANSWER_MS } : {}),
    ...(slowRegistration ? { slowMs: 500 } : {}),
    ...(busy ? { heavyMs: 500 } : {}),
  })
  closers.push(() => target.close())
  // A shop with two-factor admin login gives the admin no token for a password: the run is given its integration's.
  const env: Record<string, string> =
    variant === 'admin-two-factor' ? { SHOP_ADMIN_TOKEN: REFERENCE_INTEGRATION_TOKENS.admin } : {}
  // The late answers stay late: fixed deadlines (a kind's deadline would otherwise grow past them once one timed out).
  const deadlines = [
    '--timeout-ms',
    String(ANSWER_DEADLINE_MS),
    ...(late ? ['--max-timeout-ms', String(ANSWER_DEADLINE_MS)] : []),
  ]
  const session = await openSession(target, deadlines, env)
  closers.push(() => session.close())
  const wrong: string[] = []
  for (const check of DETAIL_CHECKS) {
    const rows = CATALOG.filter((r) => check.appliesTo(r) === true)
    for (const [id, v] of await runOverCatalog(check, session, rows))
      if (v.status !== 'passed') wrong.push(`${id} › ${check.name}: ${v.status} — ${v.message}`)
  }
  for (const w of WORKFLOWS) {
    const outcomes = await runWorkflow(w, session)
    if (outcomes.some((o) => o.verdict.status !== 'passed'))
      wrong.push(`workflow ${w.name}\n${describeOutcomes(outcomes)}`)
  }
  expect(wrong).toEqual([])
}

/**
 * The variants whose checks mostly wait (a busy shop's heavy writes, the late answers' deadlines, slow registrations):
 * tens of seconds each.
 */
const WAITING: readonly VariantName[] = [
  'busy-shop',
  'slow-tenants',
  'late-creation',
  'late-order',
  'slow-registration',
]

// Each variant has a target and a session of its own. The two that mostly wait run beside each other and beside the
// others, which run one after another (three sessions at most in this worker: more at once made each test's time the
// sum of theirs on a loaded machine): one after another, the waits added up.
describe.concurrent('the detail-table checks and the workflows on each variant of the reference target', () => {
  const closers: (() => Promise<void>)[] = []
  afterAll(async () => {
    for (const close of closers.reverse()) await close()
  })

  it('know at least the variants of issue 9', () => {
    expect(Object.keys(VARIANTS)).toEqual(
      expect.arrayContaining(['all-lists-every-group', 'one-special-price-per-store', 'reversed-special-dates-stored']),
    )
  })

  // Their waits grow on a loaded machine: a generous timeout.
  for (const variant of WAITING)
    it(`${variant}: nothing failed, nothing unjudged`, { timeout: 180_000 }, () => judgeVariant(variant, closers))

  describe.concurrent('the others, one after another', () => {
    for (const variant of (Object.keys(VARIANTS) as VariantName[]).filter((v) => !WAITING.includes(v))) {
      it.sequential(`${variant}: nothing failed, nothing unjudged`, () => judgeVariant(variant, closers))
    }
  })
})
