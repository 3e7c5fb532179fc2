/**
 * Runs a workflow's steps in order outside vitest's registration, with the same rule as `registerWorkflow`
 * (lib/run/register.ts): a step after one that did not pass is skipped, saying which. For the workflows'
 * own tests, and for anything else that wants a workflow's verdicts as data.
 */
import { provisionerOf } from '../setup/provision.ts'
import type { Session } from '../shop/session.ts'
import type { EndpointId } from '../spec/endpoint-id.ts'
import type { StepVerdict, Workflow, WorkflowContext } from './types.ts'

export interface StepOutcome {
  /** `01`, `02`, …: as in the result id `workflow <name> › <nn> <title>`. */
  ordinal: string
  title: string
  endpoint?: EndpointId
  verdict: StepVerdict
  durationMs: number
}

interface RunOptions<S extends object = object> extends Partial<WorkflowContext<S>> {
  /** Told of each step as soon as it is judged (the runner reports steps as they finish). */
  onStep?: (outcome: StepOutcome, index: number) => void
  /** Wraps each step's run (the runner turns a write refused in read-only mode into "not judged"). */
  guard?: (run: () => Promise<StepVerdict>) => Promise<StepVerdict>
}

export async function runWorkflow<S extends object>(
  workflow: Workflow<S>,
  session: Session,
  context: RunOptions<S> = {},
): Promise<StepOutcome[]> {
  const ctx: WorkflowContext<S> = { session, fx: context.fx ?? provisionerOf(session), state: context.state ?? {} }
  const out: StepOutcome[] = []
  let stopped: string | undefined
  for (const [i, step] of workflow.steps.entries()) {
    const ordinal = String(i + 1).padStart(2, '0')
    let verdict: StepVerdict
    const started = performance.now()
    if (stopped !== undefined) {
      verdict = { status: 'skipped', message: `not run: ${stopped}`, exchanges: [], reason: 'earlier-step' }
    } else {
      verdict = await (context.guard ?? ((run) => run()))(() => step.run(ctx))
      if (verdict.status !== 'passed')
        stopped = `step ${ordinal} "${step.title}" ${verdict.status === 'failed' ? 'failed' : 'was not judged'}`
    }
    const outcome: StepOutcome = {
      ordinal,
      title: step.title,
      ...(step.endpoint !== undefined ? { endpoint: step.endpoint } : {}),
      verdict,
      durationMs: Math.round(performance.now() - started),
    }
    out.push(outcome)
    context.onStep?.(outcome, i)
  }
  return out
}

/** `01 title: status — message`, one line per step: what a failing test shows. */
export function describeOutcomes(outcomes: readonly StepOutcome[]): string {
  return outcomes.map((o) => `${o.ordinal} ${o.title}: ${o.verdict.status} — ${o.verdict.message}`).join('\n')
}
