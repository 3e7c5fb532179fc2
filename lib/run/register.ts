import { describe, inject, test } from 'vitest'
import { CHECKS } from '../checks/index.ts'
import type { Verdict } from '../results/verdict.ts'
import type { Check } from '../checks/types.ts'
import { findRow, rowsOfModule } from '../spec/catalog/index.ts'
import { MODULES } from '../spec/modules.ts'
import type { EndpointRow } from '../spec/types.ts'
import { ReadOnlyViolation, Session, type SessionSeed } from '../shop/session.ts'
import { WORKFLOWS } from '../workflows/index.ts'
import { runWorkflow, type StepOutcome } from '../workflows/run-steps.ts'
import type { Workflow } from '../workflows/types.ts'
import { toResult, workflowResult, workflowStepId, type Result } from '../results/result.ts'
import { ResultKeeper } from './stream.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    shopSession: SessionSeed
    /** Check kinds to register; empty means all. */
    shopChecks: string[]
    /** Modules whose suite files this run (or shard) runs: their work is all started at once. */
    shopModules: string[]
  }
}

/** Where a result travels from the worker to the reporter. */
export const RESULT_META_KEY = 'shopResult'
/** Where the session's notes (a renewed token) travel with the next result. */
export const NOTES_META_KEY = 'shopNotes'

let shared: Session | undefined
let keeper: ResultKeeper | undefined

/**
 * One session per worker, so every suite file shares the client and the probe memo. The first suite file
 * to load starts the work of every module of the run: vitest runs suite files one after another, so work
 * started file by file would leave the concurrency bound idle at each file's tail. Tests then only await
 * verdicts already under way.
 */
function workerSession(seed: SessionSeed): Session {
  if (shared === undefined || shared.seed.runId !== seed.runId) {
    const session = new Session(seed)
    shared = session
    keeper = new ResultKeeper(seed.runId, () => session.client.stop())
    startAll(session, inject('shopModules'), selectedChecks())
  }
  return shared
}

function selectedChecks(): { checks: readonly Check[]; workflows: boolean } {
  const selected = inject('shopChecks')
  return { checks: CHECKS.filter((c) => selected.length === 0 || selected.includes(c.name)), workflows: selected.length === 0 || selected.includes('workflow') }
}

function startAll(session: Session, modules: readonly string[], selection: ReturnType<typeof selectedChecks>): void {
  for (const moduleId of modules) {
    for (const row of rowsOfModule(moduleId)) for (const check of selection.checks) if (check.appliesTo(row) === true) quiet(resultOf(session, row, check))
    if (selection.workflows) for (const workflow of WORKFLOWS.filter((w) => w.module === moduleId)) for (const step of stepsOf(session, workflow)) quiet(step)
  }
}

/** A promise started early may fail before its test awaits it; the test still sees the failure. */
function quiet(p: Promise<unknown>): void {
  p.catch(() => {})
}

/** The result of one check at one row, kept for the run (stream.ts) the moment it is judged. */
function resultOf(session: Session, row: EndpointRow, check: Check): Promise<Result> {
  return session.memo(`result ${row.method} ${row.path} › ${check.name}`, async () => {
    const started = performance.now()
    const verdict: Verdict = await guarded(() => check.run(row, session))
    const target = session.targetPath(row.path)
    const result = toResult(row, check, verdict, Math.round(performance.now() - started), target !== row.path ? target : undefined)
    keeper?.keep(result)
    return result
  })
}

/** One promise per step, each settled (and kept for the run) as soon as its step is judged. */
function stepsOf(session: Session, workflow: Workflow): Promise<Result>[] {
  const steps = session.memo(`workflow ${workflow.name}`, async () => {
    const deferred = workflow.steps.map(() => deferredOf<Result>())
    const onStep = (outcome: StepOutcome, i: number) => {
      const step = workflow.steps[i]!
      const row = step.endpoint === undefined ? undefined : findRow(...(step.endpoint.split(' ') as [string, string]))
      const result = workflowResult(workflow, outcome.ordinal, step, row, outcome.verdict, outcome.durationMs)
      keeper?.keep(result)
      deferred[i]!.resolve(result)
    }
    void runWorkflow(workflow, session, { guard: guarded, onStep }).catch((err: unknown) => {
      for (const d of deferred) d.reject(err)
    })
    return deferred.map((d) => d.promise)
  })
  return workflow.steps.map((_, i) => steps.then((all) => all[i]!))
}

/** `Promise.withResolvers`, which Node 20 lacks. */
function deferredOf<T>(): { promise: Promise<T>; resolve(v: T): void; reject(e: unknown): void } {
  let resolve!: (v: T) => void
  let reject!: (e: unknown) => void
  const promise = new Promise<T>((res, rej) => {
    resolve = res
    reject = rej
  })
  quiet(promise)
  return { promise, resolve, reject }
}

/**
 * Registers one vitest test per catalog row of the module and selected check that applies to it, named
 * `<METHOD> <path> › <check>`, and a test per step of the module's workflows. The suite files under
 * suites/ are nothing but a call of this.
 */
export function registerModule(moduleId: string): void {
  const module = MODULES.find((m) => m.id === moduleId)
  if (module === undefined) throw new Error(`unknown module ${moduleId}`)
  const session = workerSession(inject('shopSession'))
  const selection = selectedChecks()

  describe.concurrent(module.title, () => {
    for (const row of rowsOfModule(moduleId)) {
      // A check that does not apply is no test: its result (not shown by the spec) is known without a request.
      for (const check of selection.checks.filter((c) => c.appliesTo(row) === true)) {
        test(`${row.method} ${row.path} › ${check.name}`, async (ctx) => report(ctx, await resultOf(session, row, check), session))
      }
    }
    if (selection.workflows) for (const workflow of WORKFLOWS.filter((w) => w.module === moduleId)) registerWorkflow(workflow, session)
  })
}

/** One test per step, in order; a step after one that did not pass is skipped, saying which (runWorkflow). */
function registerWorkflow(workflow: Workflow, session: Session): void {
  describe.sequential(`workflow ${workflow.name}`, () => {
    const steps = stepsOf(session, workflow)
    workflow.steps.forEach((step, i) => {
      test(workflowStepId(workflow.name, i, step.title), async (ctx) => report(ctx, await steps[i]!, session))
    })
  })
}

/**
 * A write the session refused in read-only mode was never sent: whatever needed it is not judged. (Checks
 * are meant to see read-only mode coming and say so themselves; this is the backstop.)
 */
async function guarded<V extends { status: string; message: string; exchanges: unknown[] }>(run: () => Promise<V>): Promise<V | { status: 'skipped'; message: string; exchanges: []; reason: 'read-only' }> {
  try {
    return await run()
  } catch (err) {
    if (err instanceof ReadOnlyViolation) return { status: 'skipped', message: `not judged: ${err.message}`, exchanges: [], reason: 'read-only' }
    throw err
  }
}

/** Hands the result to the reporter and gives vitest the same status. */
function report(ctx: { task: { meta: object }; skip(note?: string): void }, result: Result, session: Session): void {
  const meta = ctx.task.meta as Record<string, unknown>
  meta[RESULT_META_KEY] = result
  const notes = session.takeNotes()
  if (notes.length > 0) meta[NOTES_META_KEY] = notes
  if (result.status === 'failed') throw new Error(result.message)
  if (result.status === 'skipped') ctx.skip(result.message)
}
