/**
 * Every workflow against the reference target: all steps pass on the clean target; each fault switch that
 * must break a workflow fails exactly the step it breaks (those before pass, those after are not run); a
 * target that refuses the invoice refund for a business reason is told so, not passed. The registry: registry.test.ts.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { FAULTS, startReferenceTarget, type FaultName, type ReferenceTarget } from '../../reference-target/index.ts'
import { openSession } from '../checks/testing.ts'
import { endpointId, findRow, rowId } from '../spec/catalog/index.ts'
import type { Session } from '../shop/session.ts'
import { WORKFLOWS } from './index.ts'
import { describeOutcomes, runWorkflow, type StepOutcome } from './run-steps.ts'
import type { Workflow } from './types.ts'

function workflow(name: string): Workflow {
  const w = WORKFLOWS.find((x) => x.name === name)
  if (w === undefined) throw new Error(`no workflow ${name}`)
  return w
}

describe('workflows against the reference target', () => {
  const closers: (() => Promise<void>)[] = []
  afterAll(async () => {
    for (const close of closers.reverse()) await close()
  })
  async function against(options: { faults?: FaultName[]; env?: Record<string, string> } = {}): Promise<Session> {
    const target: ReferenceTarget = await startReferenceTarget({
      faults: (options.faults ?? []).map((name) => ({ name })),
    })
    closers.push(() => target.close())
    const session = await openSession(target, [], options.env ?? {})
    closers.push(() => session.close())
    return session
  }

  /** The failing step is `failedTitle`; every step before it passed, every step after it was not run. */
  function expectBrokenAt(outcomes: StepOutcome[], failedTitle: string): StepOutcome {
    const at = outcomes.findIndex((o) => o.title === failedTitle)
    expect(at, `no step "${failedTitle}"`).toBeGreaterThanOrEqual(0)
    const report = describeOutcomes(outcomes)
    outcomes.slice(0, at).forEach((o) => expect(o.verdict.status, report).toBe('passed'))
    expect(outcomes[at]!.verdict.status, report).toBe('failed')
    for (const o of outcomes.slice(at + 1)) {
      expect(o.verdict.status, report).toBe('skipped')
      expect(o.verdict.message).toBe(`not run: step ${outcomes[at]!.ordinal} "${failedTitle}" failed`)
    }
    return outcomes[at]!
  }

  it('passes every step of every workflow on the clean target, with the exchanges as evidence', async () => {
    const session = await against()
    for (const w of WORKFLOWS) {
      const outcomes = await runWorkflow(w, session)
      expect(
        outcomes.map((o) => o.verdict.status),
        `${w.name}\n${describeOutcomes(outcomes)}`,
      ).toEqual(w.steps.map(() => 'passed'))
      for (const o of outcomes) {
        expect(o.verdict.message, `${w.name} › ${o.title}`).not.toBe('')
        // A step that judges an endpoint shows the exchange with it (the provisioner's helpers keep theirs to
        // themselves on success, so the one set-up step filed under an endpoint has none).
        if (o.endpoint !== undefined && o.endpoint !== endpointId('POST /V1/customers'))
          expect(o.verdict.exchanges.length, `${w.name} › ${o.title}`).toBeGreaterThan(0)
      }
    }
  })

  it('carries the digit-string ids of the refunds as warnings, not failures', async () => {
    const session = await against()
    const outcomes = await runWorkflow(workflow('credit-memo'), session)
    const refund = outcomes.find((o) => o.title === 'refund one unit offline')!
    expect(refund.verdict.status).toBe('passed')
    expect(refund.verdict.warnings?.join('\n') ?? '').toMatch(/digit string/)
  })

  const BROKEN: Record<string, { workflow: string; step: string; message: RegExp }> = {
    'tier-all-ignored': {
      workflow: 'tier-prices-by-group',
      step: 'list the tiers of all groups',
      message: /tier added for all groups .* is not listed under all|listing all returns the tier of group 1/,
    },
    'refund-no-creditmemo': {
      workflow: 'credit-memo',
      step: 'refund one unit offline',
      message: /made no credit memo with that id/,
    },
    'mine-leaks-cart': {
      workflow: 'mine-isolation',
      step: "B updates A's item through its own cart",
      message: /changed customer A's item/,
    },
  }
  it('knows what each fault switch that breaks a workflow breaks: every one the registry files under workflow', () => {
    const workflowFaults = (Object.keys(FAULTS) as FaultName[]).filter((f) => FAULTS[f].breaks === 'workflow')
    expect(workflowFaults.sort()).toEqual(Object.keys(BROKEN).sort())
  })
  // A run against a target per workflow fault is the CLI's (lib/cli/cli.test.ts, fault groups); the steps' judgements
  // are proven on scripted answers (steps.test.ts). Here the first.
  for (const [fault, broken] of Object.entries(BROKEN).slice(0, 1)) {
    it(`fails exactly the step the ${fault} fault breaks, and runs none after it`, async () => {
      const session = await against({ faults: [fault as FaultName] })
      const failed = expectBrokenAt(await runWorkflow(workflow(broken.workflow), session), broken.step)
      expect(failed.verdict.message).toMatch(broken.message)
      const { method, path } = FAULTS[fault as FaultName].defaultEndpoint
      expect(failed.endpoint).toBe(rowId(findRow(method, path)!))
      // Every other workflow is untouched by it.
      for (const w of WORKFLOWS.filter((x) => x.name !== broken.workflow)) {
        const outcomes = await runWorkflow(w, session)
        expect(
          outcomes.every((o) => o.verdict.status === 'passed'),
          `${w.name} under ${fault}\n${describeOutcomes(outcomes)}`,
        ).toBe(true)
      }
    })
  }

  it('reports an invoice refund the target refuses for a business reason as not judged, naming the reason and the setting', async () => {
    const session = await against({ env: { SHOP_INVOICE_REFUND_PAYMENT_METHOD: 'checkmo' } })
    const outcomes = await runWorkflow(workflow('invoice-refund'), session)
    const refund = outcomes.find((o) => o.title === 'refund the invoice')!
    expect(
      outcomes.slice(0, 2).map((o) => o.verdict.status),
      describeOutcomes(outcomes),
    ).toEqual(['passed', 'passed'])
    expect(refund.verdict.status).toBe('skipped')
    expect(refund.verdict.message).toMatch(
      /^not judged: the target refused the refund for a business reason of its own — 400 "We can't create creditmemo for the invoice\."/,
    )
    expect(refund.verdict.message).toContain('"checkmo" (setting SHOP_INVOICE_REFUND_PAYMENT_METHOD)')
    expect(refund.verdict.exchanges.at(-1)?.response?.status).toBe(400)
    expect(outcomes.at(-1)!.verdict).toMatchObject({
      status: 'skipped',
      message: 'not run: step 03 "refund the invoice" was not judged',
    })
  })
})
