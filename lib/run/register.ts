import { describe, inject, test } from 'vitest'
import { CHECKS } from '../checks/index.ts'
import { rowsOfModule } from '../spec/catalog/index.ts'
import { MODULES } from '../spec/modules.ts'
import { ReadOnlyViolation, Session, type SessionSeed } from '../target/session.ts'
import { provisionerOf } from '../../fixtures/provision.ts'
import { WORKFLOWS } from '../workflows/index.ts'
import type { StepVerdict, Workflow } from '../workflows/types.ts'
import { findRow } from '../spec/catalog/index.ts'
import { toResult, workflowResult, type Result } from './result.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    shopSession: SessionSeed
    /** Check kinds to register; empty means all. */
    shopChecks: string[]
  }
}

/** Where a result travels from the worker to the reporter. */
export const RESULT_META_KEY = 'shopResult'

let shared: Session | undefined

/** One session per worker, so every suite file shares the client and the probe memo. */
function workerSession(seed: SessionSeed): Session {
  if (shared === undefined || shared.seed.runId !== seed.runId) shared = new Session(seed)
  return shared
}

/**
 * Registers one vitest test per catalog row of the module and selected check, named
 * `<METHOD> <path> › <check>`. The suite files under suites/ are nothing but a call of this.
 */
export function registerModule(moduleId: string): void {
  const module = MODULES.find((m) => m.id === moduleId)
  if (module === undefined) throw new Error(`unknown module ${moduleId}`)
  const selected = inject('shopChecks')
  const checks = CHECKS.filter((c) => selected.length === 0 || selected.includes(c.name))
  const session = workerSession(inject('shopSession'))

  describe.concurrent(module.title, () => {
    for (const row of rowsOfModule(moduleId)) {
      const alias = session.targetPath(row.path) !== row.path ? session.targetPath(row.path) : undefined
      for (const check of checks) {
        test(`${row.method} ${row.path} › ${check.name}`, async (ctx) => {
          const started = performance.now()
          const applies = check.appliesTo(row)
          const verdict = applies === true ? await guarded(() => check.run(row, session)) : { status: 'skipped' as const, message: applies, exchanges: [] }
          const result: Result = toResult(row, check, verdict, Math.round(performance.now() - started), alias, applies === true)
          report(ctx, result)
        })
      }
    }
    if (selected.length === 0 || selected.includes('workflow')) {
      for (const workflow of WORKFLOWS.filter((w) => w.module === moduleId)) registerWorkflow(workflow, session)
    }
  })
}

/**
 * A write the session refused in read-only mode was never sent: whatever needed it is not judged. (Checks
 * are meant to see read-only mode coming and say so themselves; this is the backstop.)
 */
async function guarded<V extends { status: string; message: string; exchanges: unknown[] }>(run: () => Promise<V>): Promise<V | { status: 'skipped'; message: string; exchanges: [] }> {
  try {
    return await run()
  } catch (err) {
    if (err instanceof ReadOnlyViolation) return { status: 'skipped', message: `not judged: ${err.message}`, exchanges: [] }
    throw err
  }
}

/** Hands the result to the reporter and gives vitest the same status. */
function report(ctx: { task: { meta: object }; skip(note?: string): void }, result: Result): void {
  ;(ctx.task.meta as Record<string, unknown>)[RESULT_META_KEY] = result
  if (result.status === 'failed') throw new Error(result.message)
  if (result.status === 'skipped') ctx.skip(result.message)
}

/** One test per step, in order; a step after one that did not pass is skipped, saying which. */
function registerWorkflow(workflow: Workflow, session: Session): void {
  describe.sequential(`workflow ${workflow.name}`, () => {
    const state: Record<string, unknown> = {}
    let stopped: string | undefined
    workflow.steps.forEach((step, i) => {
      const ordinal = String(i + 1).padStart(2, '0')
      test(`workflow ${workflow.name} › ${ordinal} ${step.title}`, async (ctx) => {
        const started = performance.now()
        let verdict: StepVerdict
        if (stopped !== undefined) {
          verdict = { status: 'skipped', message: `not run: ${stopped}`, exchanges: [] }
        } else {
          verdict = await guarded(() => step.run({ session, fx: provisionerOf(session), state }))
          if (verdict.status !== 'passed') stopped = `step ${ordinal} "${step.title}" ${verdict.status === 'failed' ? 'failed' : 'was not judged'}`
        }
        const row = step.endpoint === undefined ? undefined : findRow(...(step.endpoint.split(' ') as [string, string]))
        report(ctx, workflowResult(workflow, ordinal, step, row, verdict, Math.round(performance.now() - started)))
      })
    })
  })
}
