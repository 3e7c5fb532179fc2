/**
 * What a suite file calls: a module's planned checks as vitest tests. One test per planned check of the module
 * (catalog row × check kind that applies, `<METHOD> <path> › <check>`) and one per workflow step. The module's
 * `beforeAll` starts the work of exactly the tests vitest selected (file filters, `-t`, shard, an editor's test
 * ids), so they run concurrently whatever order vitest runs them in; each test only awaits its verdict. When
 * whole modules run, it starts the next modules' work too (lookahead.ts): vitest runs the files one by one.
 * Collection needs nothing provided: `vitest list` and an editor's discovery see every test, and send nothing.
 * The worker's side of a run lives here too: one session per worker thread (isolate: false keeps this module's
 * state across suite files), so every suite file shares the client, its concurrency bound and the probe memo;
 * and the judging of one check or one workflow into results.
 */
import { beforeAll, describe, inject, test, type TestContext } from 'vitest'
import type { RunnerTask, RunnerTestSuite } from 'vitest'
import { CHECKS } from '../checks/index.ts'
import type { Check } from '../checks/types.ts'
import { rowOf } from '../spec/catalog/index.ts'
import { MODULES } from '../spec/modules.ts'
import type { EndpointRow } from '../spec/types.ts'
import { ReadOnlyViolation, Session, type SessionSeed } from '../shop/session.ts'
import { WORKFLOWS } from '../workflows/index.ts'
import { runWorkflow, type StepOutcome } from '../workflows/run-steps.ts'
import type { Workflow } from '../workflows/types.ts'
import { toResult, workflowResult, workflowStepId, type Result } from '../results/result.ts'
import { crashVerdict } from '../results/crash.ts'
import type { Origin } from '../results/plan-block.ts'
import { PLAN, selectionOf, selectPlan, type ExtensionFacts, type PlannedCheck } from '../plan/plan.ts'
import { NOTES_META, RESULT_META, SELECTED_META } from '../results/meta.ts'
import { onStopAnnounced } from '../shop/stop-channel.ts'
import { laneOf, modulesAhead, startedIn, startOnce } from './lookahead.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's facts (preflight's seed: tokens included, in memory only). Absent when only collecting. */
    shopRun: RunFacts
    /** Check kinds `--check` selected (empty: all); provided before collection, so only those are tests. */
    shopChecks: string[]
    /** The shop's extension operations and the vendor's config (extension-suite.ts). Absent when only collecting. */
    shopExtensions: ExtensionFacts
  }
}

type Start = () => Promise<Result>

/**
 * `moduleSuite({ module, workflows })`: the module's endpoints come from its catalog file (through the plan);
 * `workflows` names the module's workflows so a reader of the suite file sees them, and must be exactly the
 * plan's (checked at collection: a suite file can never show other workflows than the run runs).
 */
export function moduleSuite(declared: { module: string; workflows: readonly string[] }): void {
  const module = MODULES.find((m) => m.id === declared.module)
  if (module === undefined) throw new Error(`moduleSuite: unknown module "${declared.module}" (known: ${MODULES.map((m) => m.id).join(', ')})`)
  const workflows = WORKFLOWS.filter((w) => w.module === module.id)
  const names = workflows.map((w) => w.name)
  if (names.join('\n') !== declared.workflows.join('\n')) {
    throw new Error(`suites/${module.id}.conformance.ts names the workflows ${JSON.stringify(declared.workflows)}; the module has ${JSON.stringify(names)}`)
  }
  const { planned, starters } = moduleWork(module.id)

  describe.concurrent(module.title, () => {
    beforeAll(({}, suite) => {
      const facts = inject('shopRun')
      if (facts === undefined) throw new Error('no run facts provided: the conformance project is run by its reporter (lib/run/run-reporter.ts), which its plugin adds')
      if (facts.refused !== undefined) return // the preflight refused the target: every test says so, none sends anything
      const runId = facts.seed!.runId
      const session = sessionFor(facts.seed!)
      // Work of this module started ahead (by an earlier file) now goes before any still ahead.
      laneOf(runId, module.id).begin()
      for (const task of selectedTests(suite)) {
        ;(task.meta as Record<string, unknown>)[SELECTED_META] = true
        const start = starters.get(task.name)?.(session)
        if (start !== undefined) startOnce(runId, task.name, start)
      }
      if (facts.lookahead === undefined) return
      // Whole modules in a known order: the next module's planned tests are exactly the ones its file will select.
      // Their requests yield to the running modules' (lib/shop/bound.ts): what a stop cuts off is work ahead.
      for (const next of modulesAhead(runId, module.id, facts.lookahead)) {
        const ahead = session.inLane(laneOf(runId, next))
        for (const [id, starter] of moduleWork(next).starters) startOnce(runId, id, starter(ahead))
      }
    })
    const work = () => startedIn(inject('shopRun')?.seed?.runId)
    for (const p of planned.filter((c) => c.kind !== 'workflow')) test(p.id, (ctx) => verdictOf(ctx, p.id, work()))
    for (const workflow of workflows) {
      const ids = workflow.steps.map((step, i) => workflowStepId(workflow.name, i, step.title)).filter((id) => starters.has(id))
      if (ids.length === 0) continue
      describe.concurrent(`workflow ${workflow.name}`, () => {
        for (const id of ids) test(id, (ctx) => verdictOf(ctx, id, work()))
      })
    }
  })
}

/** The starters of a module's planned tests (`--check` applied), by test id: at its collection, and ahead of it. */
function moduleWork(moduleId: string): { planned: readonly PlannedCheck[]; starters: Map<string, (session: Session) => Start> } {
  const planned = selectPlan(PLAN, selectionOf([moduleId], inject('shopChecks') ?? [])).checks
  const starters = new Map<string, (session: Session) => Start>()
  for (const p of planned.filter((c) => c.kind !== 'workflow')) {
    const check = CHECKS.find((c) => c.name === p.kind) as Check
    const row = rowOf(p.endpoint!)
    starters.set(p.id, (session) => () => judgeCheck(session, row, check))
  }
  const steps = new Set(planned.filter((c) => c.kind === 'workflow').map((c) => c.id))
  for (const workflow of WORKFLOWS.filter((w) => w.module === moduleId)) {
    const ids = workflow.steps.map((step, i) => workflowStepId(workflow.name, i, step.title))
    if (!ids.some((id) => steps.has(id))) continue
    // Any step started starts the whole workflow once (its steps feed one another).
    let results: Promise<Result>[] | undefined
    ids.forEach((id, i) => starters.set(id, (session) => () => (results ??= judgeWorkflow(session, workflow))[i]!))
  }
  return { planned, starters }
}

/** The tests of the suite vitest will run (mode `run`, after -t, .only, test ids, lines and shard). */
export function selectedTests(suite: RunnerTestSuite): RunnerTask[] {
  const out: RunnerTask[] = []
  const walk = (task: RunnerTask) => {
    if (task.type === 'test' && task.mode === 'run') out.push(task)
    if (task.type === 'suite') for (const t of task.tasks) walk(t)
  }
  walk(suite)
  return out
}

export { quiet } from './lookahead.ts'

/**
 * Awaits the test's verdict; the result rides in the test's meta to the run's reporter (its exchanges were
 * redacted when recorded: meta reaches blob files on disk), and vitest gets the same status. A cancelled run
 * (deadline) aborts the test's signal: the worker's requests stop, and a verdict that may rest on a request
 * the stop cut off is not reported.
 */
export async function verdictOf(ctx: TestContext, id: string, started: ReadonlyMap<string, Promise<Result>>): Promise<void> {
  const running = started.get(id)
  if (running === undefined) {
    const refused = inject('shopRun')?.refused
    if (refused !== undefined) return ctx.skip(`not run: ${refused}`)
    throw new Error(`${id} was not started by its module's beforeAll`)
  }
  const aborted = new Promise<'aborted'>((resolve) => ctx.signal.addEventListener('abort', () => resolve('aborted'), { once: true }))
  const raced = ctx.signal.aborted ? 'aborted' : await Promise.race([running, aborted])
  // A stop told by the main process (lib/shop/stop-channel.ts) may cut a request off before this test's signal aborts.
  const result = session?.client.stopped === true ? 'aborted' : raced
  if (result === 'aborted') {
    stopSession()
    ctx.skip('the run was stopped before this check was judged')
    return
  }
  const meta = ctx.task.meta as Record<string, unknown>
  meta[RESULT_META] = result
  const notes = takeNotes()
  if (notes.length > 0) meta[NOTES_META] = notes
  if (result.status === 'failed' || result.status === 'error') throw new Error(result.message)
  if (result.status === 'skipped') ctx.skip(result.message)
}

/** What the run's reporter provides to the suite files (vitest `provide`: in memory, never on disk). */
export interface RunFacts {
  /** The preflight's seed (tokens included); absent when the preflight refused the target. */
  seed?: SessionSeed
  /** Why the run could not be made: the tests are skipped, and send nothing. */
  refused?: string
  /**
   * The run's modules in the order the worker runs their files, given only when each file will run its whole
   * module (no `-t`, test ids or lines): a module's `beforeAll` then starts the next one's work (lookahead.ts).
   */
  lookahead?: string[]
}

let session: Session | undefined
let stopListening = () => {}

/** The worker's session of this run (a new run — watch mode, an editor's rerun — gets a new one). */
export function sessionFor(seed: SessionSeed): Session {
  if (session === undefined || session.seed.runId !== seed.runId) {
    const made = (session = new Session(seed))
    stopListening()
    stopListening = onStopAnnounced(seed.runId, () => made.client.stop())
  }
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

/** A check's result; a check whose code throws is an error of its code's owner (a vendor's, or the suite's), never the shop's failure. */
export async function judgeCheck(session: Session, row: EndpointRow, check: Check & { origin?: Origin }): Promise<Result> {
  const started = performance.now()
  const redact = (text: string) => session.secrets.redactText(text)
  const verdict = await guarded(() => check.run(row, session)).catch((err: unknown) =>
    check.origin === 'vendor' ? crashVerdict('vendor', check.name, err, redact) : crashVerdict('suite', `the ${check.name} check`, err, redact),
  )
  const target = session.targetPath(row.path)
  return toResult(row, check, verdict, Math.round(performance.now() - started), target !== row.path ? target : undefined)
}

/** One promise per step, each settled as soon as its step is judged. */
export function judgeWorkflow(session: Session, workflow: Workflow): Promise<Result>[] {
  const deferred = workflow.steps.map(() => deferredOf<Result>())
  const onStep = (outcome: StepOutcome, i: number) => {
    const step = workflow.steps[i]!
    const row = step.endpoint === undefined ? undefined : rowOf(step.endpoint)
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
