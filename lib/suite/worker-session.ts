/**
 * The worker's side of a run: one session per worker thread (isolate: false keeps this module's state across
 * suite files), so every suite file shares the client, its concurrency bound and the probe memo; and the
 * judging of one check or one workflow into results.
 */
import type { Check } from '../checks/types.ts'
import { findRow } from '../spec/catalog/index.ts'
import type { EndpointRow } from '../spec/types.ts'
import { ReadOnlyViolation, Session, type SessionSeed } from '../shop/session.ts'
import { runWorkflow, type StepOutcome } from '../workflows/run-steps.ts'
import type { Workflow } from '../workflows/types.ts'
import { toResult, workflowResult, type Result } from '../results/result.ts'

/** What the run's reporter provides to the suite files (vitest `provide`: in memory, never on disk). */
export interface RunFacts {
  /** The preflight's seed (tokens included); absent when the preflight refused the target. */
  seed?: SessionSeed
  /** Why the run could not be made: the tests are skipped, and send nothing. */
  refused?: string
}

let session: Session | undefined

/** The worker's session of this run (a new run — watch mode, an editor's rerun — gets a new one). */
export function sessionFor(seed: SessionSeed): Session {
  if (session === undefined || session.seed.runId !== seed.runId) session = new Session(seed)
  return session
}

/** The run was cancelled: requests in flight are cut off and none is sent any more. */
export function stopSession(): void {
  session?.client.stop()
}

/** What the session told since last asked (a renewed token). */
export function takeNotes(): string[] {
  return session?.takeNotes() ?? []
}

export async function judgeCheck(session: Session, row: EndpointRow, check: Check): Promise<Result> {
  const started = performance.now()
  const verdict = await guarded(() => check.run(row, session))
  const target = session.targetPath(row.path)
  return toResult(row, check, verdict, Math.round(performance.now() - started), target !== row.path ? target : undefined)
}

/** One promise per step, each settled as soon as its step is judged. */
export function judgeWorkflow(session: Session, workflow: Workflow): Promise<Result>[] {
  const deferred = workflow.steps.map(() => deferredOf<Result>())
  const onStep = (outcome: StepOutcome, i: number) => {
    const step = workflow.steps[i]!
    const row = step.endpoint === undefined ? undefined : findRow(...(step.endpoint.split(' ') as [string, string]))
    deferred[i]!.resolve(workflowResult(workflow, outcome.ordinal, step, row, outcome.verdict, outcome.durationMs))
  }
  void runWorkflow(workflow, session, { guard: guarded, onStep }).catch((err: unknown) => {
    for (const d of deferred) d.reject(err)
  })
  return deferred.map((d) => d.promise)
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
