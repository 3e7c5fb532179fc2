/**
 * A recorded run's workflows judged again (`judge --har`): each selected workflow's own steps run again, one
 * workflow after another, on a session whose every request the recording answers (lib/shop/replay.ts) — its set-up,
 * its calls, its state handed from step to step and its judgement the same code as the run's, sending nothing. A step
 * that asked what the recording holds no answer to (it sends otherwise now, or the recording kept only the start of an
 * answer it read) is not judged, reason `not-recorded`; so is every step of a recording made before its run's session
 * was recorded with it.
 */
import { workflowResult, workflowStepId, type Result } from '../results/result.ts'
import type { Verdict } from '../results/verdict.ts'
import type { HarEntry } from '../results/har.ts'
import { ReplayTransport, replaySeed, type RecordedSession } from '../shop/replay.ts'
import { Session } from '../shop/session.ts'
import { rowOf } from '../spec/catalog/index.ts'
import type { StepVerdict, Workflow } from '../workflows/types.ts'
import { judgeWorkflow } from './judge-planned.ts'
import { defined } from '../base/defined.ts'

interface WorkflowsRecording {
  run: Parameters<typeof replaySeed>[0] & { session?: RecordedSession }
  entries: readonly HarEntry[]
}

/** Which steps are judged again, and why one is not: a step the recording's run did not plan is one added since. */
interface Selection {
  selected: ReadonlySet<string>
  /** Why a step planned now was not recorded (it was planned since), when the recording says what it planned. */
  since(id: string): string | undefined
}

/** The selected steps of `workflows`, each judged again on the recording or not judged (`not-recorded`), saying why. */
export async function replayWorkflows(
  workflows: readonly Workflow[],
  recording: WorkflowsRecording,
  selection: Selection,
): Promise<Result[]> {
  const chosen = workflows.filter((w) =>
    w.steps.some((step, i) => selection.selected.has(workflowStepId(w.name, i, step.title))),
  )
  if (chosen.length === 0) return []
  const { session: recorded } = recording.run
  // A recording before the session and the tokens were recorded with it (suite 0.1.0 before issue 30's workflows).
  const unrecorded =
    recorded === undefined || !recording.entries.some((e) => e._token !== undefined)
      ? 'the recording holds neither the session its workflows ran on nor the tokens its requests were sent with'
      : undefined
  const transport = new ReplayTransport(recording.entries)
  const session =
    recorded !== undefined && unrecorded === undefined
      ? new Session(replaySeed(recording.run, recorded), undefined, transport)
      : undefined
  const results: Result[] = []
  try {
    for (const workflow of chosen) {
      const judged = session === undefined ? undefined : await judgedAgain(workflow, session, transport)
      workflow.steps.forEach((step, i) => {
        const id = workflowStepId(workflow.name, i, step.title)
        if (!selection.selected.has(id)) return
        const why = selection.since(id) ?? unrecorded
        const row = step.endpoint === undefined ? undefined : rowOf(step.endpoint)
        results.push(
          why !== undefined || judged === undefined
            ? workflowResult(workflow, String(i + 1).padStart(2, '0'), step, row, notRecorded(why ?? ''), 0)
            : defined(judged[i], 'the result of a workflow step'),
        )
      })
    }
  } finally {
    await session?.close()
  }
  return results
}

/** The workflow's steps run again on the recording, in order: a step that missed in it is not judged. */
function judgedAgain(workflow: Workflow, session: Session, transport: ReplayTransport): Promise<Result[]> {
  transport.forWorkflow(workflow.name)
  const around = async (judge: () => Promise<StepVerdict>): Promise<StepVerdict> => {
    const before = transport.misses.length
    const verdict = await judge()
    const missed = transport.misses.slice(before)
    return missed.length === 0
      ? verdict
      : notRecorded(
          `the step sends ${missed[0]}, to which the recording holds no answer${missed.length > 1 ? ` (and ${missed.length - 1} more)` : ''}`,
        )
  }
  return Promise.all(judgeWorkflow(session, workflow, around))
}

export function notRecorded(why: string): Verdict {
  return { status: 'skipped', message: `not judged: ${why}`, exchanges: [], reason: 'not-recorded' }
}
