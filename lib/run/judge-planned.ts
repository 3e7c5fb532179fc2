/**
 * Judging a planned check into its result, with no test runner around it: what the suite files' tests await
 * (lib/vitest/module-suite.ts, extension-suite.ts start it and only carry its result), and what a test of the
 * judging calls directly. A planned check (lib/plan/plan.ts) names its row and its kind; they are found in the
 * parts its plan was built of — the spec's suite, or a run's with the shop's extension operations and a
 * vendor's set — and judged on the worker's session.
 *
 * A check whose code throws is an error of its code's owner (status `error`: the suite's, or a vendor's), never
 * the shop's failure; a write the read-only session refused was never sent, and what needed it is not judged.
 */
import type { Check } from '../checks/types.ts'
import { rowOfPlanned, type PlannedCheck, type PlanParts } from '../plan/plan.ts'
import { crashVerdict } from '../results/crash.ts'
import type { Origin } from '../results/plan-block.ts'
import { toResult, workflowResult, workflowStepId, type Result } from '../results/result.ts'
import { ReadOnlyViolation, type Session } from '../shop/session.ts'
import { rowOf } from '../spec/catalog/index.ts'
import type { EndpointRow } from '../spec/types.ts'
import { runWorkflow, type StepOutcome } from '../workflows/run-steps.ts'
import type { StepVerdict, Workflow } from '../workflows/types.ts'
import { defined } from '../base/defined.ts'

/** Starts a planned check's judging on a session (when called): the promise of its result. */
export type Starter = (session: Session) => () => Promise<Result>

/**
 * How each check of `planned` is judged, by its id. A check from outside the spec (an extension operation's, a
 * vendor's) gives a result that says so (`origin`, `extension`). Any step of a workflow starts the whole
 * workflow, once per call of this function (its steps feed one another).
 */
export function plannedWork(parts: PlanParts, planned: readonly PlannedCheck[]): Map<string, Starter> {
  const starters = new Map<string, Starter>()
  // By origin too: a vendor may declare a kind of a spec kind's name.
  const kinds = new Map(parts.kinds.map((k) => [`${k.origin ?? 'spec'} ${k.name}`, k]))
  for (const p of planned) {
    if (p.kind === 'workflow') continue
    const row = rowOfPlanned(p)
    const check = kinds.get(`${p.origin} ${p.kind}`)
    if (row === undefined || check === undefined)
      throw new Error(
        `${p.id}: planned, but its ${row === undefined ? 'row' : 'check kind'} is not among the plan's parts`,
      )
    const origin = p.origin
    starters.set(p.id, (session) => async () => {
      const result = await judgeCheck(session, row, check)
      return origin === 'spec' ? result : { ...result, origin, extension: true }
    })
  }
  const steps = new Set(planned.filter((c) => c.kind === 'workflow').map((c) => c.id))
  for (const workflow of parts.workflows) {
    const ids = workflow.steps.map((step, i) => workflowStepId(workflow.name, i, step.title))
    if (!ids.some((id) => steps.has(id))) continue
    let results: Promise<Result>[] | undefined
    ids.forEach((id, i) =>
      starters.set(
        id,
        (session) => () => defined((results ??= judgeWorkflow(session, workflow))[i], 'the result of a workflow step'),
      ),
    )
  }
  return starters
}

/**
 * A check's result; a check whose code throws is an error of its code's owner (a vendor's, or the suite's), never the
 * shop's failure.
 */
export async function judgeCheck(
  session: Session,
  row: EndpointRow,
  check: Check & { origin?: Origin },
): Promise<Result> {
  const started = performance.now()
  const redact = (text: string) => session.secrets.redactText(text)
  const verdict = await guarded(() => check.run(row, session)).catch((err: unknown) =>
    check.origin === 'vendor'
      ? crashVerdict('vendor', check.name, err, redact)
      : crashVerdict('suite', `the ${check.name} check`, err, redact),
  )
  const target = session.targetPath(row.path)
  return toResult(
    row,
    check,
    verdict,
    Math.round(performance.now() - started),
    target !== row.path ? target : undefined,
  )
}

/**
 * One promise per step, each settled as soon as its step is judged. `around`: what each step's judging is run within
 * (a recording's replay: a step that asked what the recording does not hold is not judged).
 */
export function judgeWorkflow(
  session: Session,
  workflow: Workflow,
  around?: (judge: () => Promise<StepVerdict>) => Promise<StepVerdict>,
): Promise<Result>[] {
  const deferred = workflow.steps.map(() => deferredOf<Result>())
  const onStep = (outcome: StepOutcome, i: number) => {
    const step = defined(workflow.steps[i], 'a step of the workflow')
    const row = step.endpoint === undefined ? undefined : rowOf(step.endpoint)
    defined(deferred[i], 'the promise of a workflow step').resolve(
      workflowResult(workflow, outcome.ordinal, step, row, outcome.verdict, outcome.durationMs),
    )
  }
  const guard = around === undefined ? guarded : (run: () => Promise<StepVerdict>) => around(() => guarded(run))
  void runWorkflow(workflow, session, { guard, onStep }).catch((err: unknown) => {
    for (const d of deferred) d.reject(err)
  })
  return deferred.map((d) => d.promise)
}

/**
 * A write the session refused in read-only mode was never sent: whatever needed it is not judged. (Checks
 * are meant to see read-only mode coming and say so themselves; this is the backstop.)
 */
async function guarded<V extends { status: string; message: string; exchanges: unknown[] }>(
  run: () => Promise<V>,
): Promise<V | { status: 'skipped'; message: string; exchanges: []; reason: 'read-only' }> {
  try {
    return await run()
  } catch (err) {
    if (err instanceof ReadOnlyViolation)
      return { status: 'skipped', message: `not judged: ${err.message}`, exchanges: [], reason: 'read-only' }
    throw err
  }
}

/** `Promise.withResolvers`, which Node 20 lacks; its promise may settle before anyone awaits it. */
function deferredOf<T>(): { promise: Promise<T>; resolve(v: T): void; reject(e: unknown): void } {
  let resolve!: (v: T) => void
  let reject!: (e: unknown) => void
  const promise = new Promise<T>((res, rej) => {
    resolve = res
    reject = rej
  })
  promise.catch(() => {})
  return { promise, resolve, reject }
}
