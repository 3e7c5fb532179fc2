/**
 * What a suite file calls: a module's planned checks as vitest tests. One test per planned check of the module
 * (catalog row × check kind that applies, `<METHOD> <path> › <check>`) and one per workflow step. The module's
 * `beforeAll` starts the work of exactly the tests vitest selected (file filters, `-t`, shard, an editor's test
 * ids), so they run concurrently whatever order vitest runs them in; each test only awaits its verdict.
 * Collection needs nothing provided: `vitest list` and an editor's discovery see every test, and send nothing.
 */
import { beforeAll, describe, inject, test, type TestContext } from 'vitest'
import type { RunnerTask, RunnerTestSuite } from 'vitest'
import { CHECKS } from '../checks/index.ts'
import type { Check } from '../checks/types.ts'
import { findRow } from '../spec/catalog/index.ts'
import { MODULES } from '../spec/modules.ts'
import { WORKFLOWS } from '../workflows/index.ts'
import type { Workflow } from '../workflows/types.ts'
import { workflowStepId, type Result } from '../results/result.ts'
import { PLAN, selectionOf, selectPlan, type ExtensionFacts } from '../plan/plan.ts'
import { NOTES_META, RESULT_META, SELECTED_META } from '../results/meta.ts'
import { judgeCheck, judgeWorkflow, sessionFor, stopSession, takeNotes, type RunFacts } from './worker-session.ts'

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
  const planned = selectPlan(PLAN, selectionOf([module.id], inject('shopChecks') ?? [])).checks
  const starters = new Map<string, (facts: RunFacts) => Start>()
  const started = new Map<string, Promise<Result>>()

  describe.concurrent(module.title, () => {
    beforeAll(({}, suite) => {
      const facts = inject('shopRun')
      if (facts === undefined) throw new Error('no run facts provided: the conformance project is run by its reporter (lib/run/run-reporter.ts), which its plugin adds')
      if (facts.refused !== undefined) return // the preflight refused the target: every test says so, none sends anything
      for (const task of selectedTests(suite)) {
        ;(task.meta as Record<string, unknown>)[SELECTED_META] = true
        const start = starters.get(task.name)?.(facts)
        if (start !== undefined) started.set(task.name, quiet(start()))
      }
    })
    for (const p of planned.filter((c) => c.kind !== 'workflow')) {
      const check = CHECKS.find((c) => c.name === p.kind) as Check
      const row = findRow(...(p.endpoint!.split(' ') as [string, string]))!
      starters.set(p.id, (facts) => () => judgeCheck(sessionFor(facts.seed!), row, check))
      test(p.id, (ctx) => verdictOf(ctx, p.id, started))
    }
    const steps = new Set(planned.filter((c) => c.kind === 'workflow').map((c) => c.id))
    for (const workflow of workflows) workflowTests(workflow, steps, starters, started)
  })
}

/** A `describe` per workflow, a test per step; any selected step starts the whole workflow once (its steps feed one another). */
function workflowTests(workflow: Workflow, planned: ReadonlySet<string>, starters: Map<string, (facts: RunFacts) => Start>, started: ReadonlyMap<string, Promise<Result>>): void {
  const ids = workflow.steps.map((step, i) => workflowStepId(workflow.name, i, step.title))
  if (!ids.some((id) => planned.has(id))) return
  describe.concurrent(`workflow ${workflow.name}`, () => {
    let steps: Promise<Result>[] | undefined
    ids.forEach((id, i) => {
      starters.set(id, (facts) => () => (steps ??= judgeWorkflow(sessionFor(facts.seed!), workflow))[i]!)
      test(id, (ctx) => verdictOf(ctx, id, started))
    })
  })
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

export function quiet<T>(p: Promise<T>): Promise<T> {
  p.catch(() => {})
  return p
}

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
  const result = ctx.signal.aborted ? 'aborted' : await Promise.race([running, aborted])
  if (result === 'aborted') {
    stopSession()
    ctx.skip('the run was stopped before this check was judged')
    return
  }
  const meta = ctx.task.meta as Record<string, unknown>
  meta[RESULT_META] = result
  const notes = takeNotes()
  if (notes.length > 0) meta[NOTES_META] = notes
  if (result.status === 'failed') throw new Error(result.message)
  if (result.status === 'skipped') ctx.skip(result.message)
}
