/**
 * What a suite file calls: a module's planned checks as vitest tests. One test per planned check of the module
 * (catalog row × check kind that applies, `<METHOD> <path> › <check>`) and one per workflow step. The module's
 * `beforeAll` starts the work of exactly the tests vitest selected (file filters, `-t`, shard, an editor's test
 * ids), so they run concurrently whatever order vitest runs them in; each test only awaits its verdict. When
 * whole modules run, it starts the next modules' work too (lookahead.ts): vitest runs the files one by one.
 * Collection needs nothing provided: `vitest list` and an editor's discovery see every test, and send nothing.
 * The judging itself is vitest-free (lib/run/judge-planned.ts), on the worker's session (lib/run/worker-session.ts).
 */
import { beforeAll, describe, inject, test, type TestContext } from 'vitest'
import type { RunnerTask, RunnerTestSuite } from 'vitest'
// The check kinds first, the worker's first import of the suite, as before issue 24: their CommonJS dependencies
// (undici, ajv) then load in one synchronous stretch, and V8's first full collection of the worker's heap comes after
// them (14–15 MB kept). Imported after the workflows (faker first), it came before them (11–12 MB kept); V8 sizes the
// old generation from what a full collection keeps (about 4×), so the second came within the first 200–470 requests
// instead of after about 1,000–1,400 of 2,084, and what the rest of the run promoted stayed in the heap to its end:
// about 4 MB more of peak RSS (docs/performance.md). What it costs is where GCs fall, not memory kept.
import '../checks/index.ts'
import { MODULES } from '../spec/modules.ts'
import type { SessionSeed } from '../shop/session.ts'
import { WORKFLOWS } from '../workflows/index.ts'
import { workflowStepId, type Result } from '../results/result.ts'
import { PLAN, selectionOf, selectPlan, SUITE, type ExtensionFacts, type PlannedCheck } from '../plan/plan.ts'
import { plannedWork, type Starter } from '../run/judge-planned.ts'
import {
  deadlinesSoFar,
  sessionFor,
  sessionStopped,
  stopSession,
  takeNotes,
  takeServerErrors,
  tellServed,
} from '../run/worker-session.ts'
import { carryResult, carryServerErrors, markSelected } from './task-meta.ts'
import { laneOf, modulesAhead, startedIn, startOnce } from './lookahead.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's facts (preflight's seed: tokens included, in memory only). Absent when only collecting. */
    shopRun: RunFacts
    /** Check kinds `--check` selected (empty: all); provided before collection, so only those are tests. */
    shopChecks: string[]
    /** Modules `--module` selected (empty: all): a vendor's selects its checks alone in the extensions' file. */
    shopModules: string[]
    /** The shop's extension operations and the vendor's config (extension-suite.ts). Absent when only collecting. */
    shopExtensions: ExtensionFacts
  }
}

/**
 * `moduleSuite({ module, workflows })`: the module's endpoints come from its catalog file (through the plan);
 * `workflows` names the module's workflows so a reader of the suite file sees them, and must be exactly the
 * plan's (checked at collection: a suite file can never show other workflows than the run runs).
 */
export function moduleSuite(declared: { module: string; workflows: readonly string[] }): void {
  const module = MODULES.find((m) => m.id === declared.module)
  if (module === undefined)
    throw new Error(`moduleSuite: unknown module "${declared.module}" (known: ${MODULES.map((m) => m.id).join(', ')})`)
  const workflows = WORKFLOWS.filter((w) => w.module === module.id)
  const names = workflows.map((w) => w.name)
  if (names.join('\n') !== declared.workflows.join('\n')) {
    throw new Error(
      `suites/${module.id}.conformance.ts names the workflows ${JSON.stringify(declared.workflows)}; the module has ${JSON.stringify(names)}`,
    )
  }
  const { planned, starters } = moduleWork(module.id)

  describe.concurrent(module.title, () => {
    beforeAll(({}, suite) => {
      const facts = inject('shopRun')
      if (facts === undefined)
        throw new Error(
          'no run facts provided: the conformance project is run by its reporter (lib/vitest/run-reporter.ts), which its plugin adds',
        )
      // the preflight refused the target: every test says so, none sends anything
      if (facts.refused !== undefined) return
      const runId = facts.seed.runId
      const session = sessionFor(facts.seed)
      // Work of this module started ahead (by an earlier file) now goes before any still ahead.
      laneOf(runId, module.id).begin()
      for (const task of selectedTests(suite)) {
        markSelected(task)
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
      const ids = workflow.steps
        .map((step, i) => workflowStepId(workflow.name, i, step.title))
        .filter((id) => starters.has(id))
      if (ids.length === 0) continue
      describe.concurrent(`workflow ${workflow.name}`, () => {
        for (const id of ids) test(id, (ctx) => verdictOf(ctx, id, work()))
      })
    }
  })
}

/** The starters of a module's planned tests (`--check` applied), by test id: at its collection, and ahead of it. */
function moduleWork(moduleId: string): { planned: readonly PlannedCheck[]; starters: Map<string, Starter> } {
  const planned = selectPlan(PLAN, selectionOf([moduleId], inject('shopChecks') ?? [])).checks
  return { planned, starters: plannedWork(SUITE, planned) }
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
export async function verdictOf(
  ctx: TestContext,
  id: string,
  started: ReadonlyMap<string, Promise<Result>>,
): Promise<void> {
  const running = started.get(id)
  if (running === undefined) {
    const refused = inject('shopRun')?.refused
    if (refused !== undefined) return ctx.skip(`not run: ${refused}`)
    throw new Error(`${id} was not started by its module's beforeAll`)
  }
  const aborted = new Promise<'aborted'>((resolve) =>
    ctx.signal.addEventListener('abort', () => resolve('aborted'), { once: true }),
  )
  const raced = ctx.signal.aborted ? 'aborted' : await Promise.race([running, aborted])
  // A stop told by the main process (lib/shop/stop-channel.ts) may cut a request off before this test's signal aborts.
  const result = sessionStopped() ? 'aborted' : raced
  // Whatever became of the test, the server errors met so far ride with it: a stopped run keeps them too.
  carryServerErrors(ctx.task, takeServerErrors())
  if (result === 'aborted') {
    stopSession()
    ctx.skip('the run was stopped before this check was judged')
    return
  }
  tellServed(result)
  carryResult(ctx.task, result, takeNotes(), deadlinesSoFar())
  if (result.status === 'failed' || result.status === 'error') throw new Error(result.message)
  if (result.status === 'skipped') ctx.skip(result.message)
}

/**
 * What the run's reporter provides to the suite files (vitest `provide`: in memory, never on disk): a started run's
 * seed, or why the preflight refused the target — one or the other, so a suite file that is not refused has a seed.
 */
type RunFacts =
  | {
      /** The preflight's seed (tokens included). */
      seed: SessionSeed
      refused?: undefined
      /**
       * The run's modules in the order the worker runs their files, given only when each file will run its whole
       * module (no `-t`, test ids or lines): a module's `beforeAll` then starts the next one's work (lookahead.ts).
       */
      lookahead?: string[]
    }
  | {
      /** Why the run could not be made: the tests are skipped, and send nothing. */
      refused: string
      seed?: undefined
      lookahead?: undefined
    }
