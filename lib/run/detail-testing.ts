/**
 * Test support (not a test itself): the detail-table checks — body-keys, shape and batch-partial over every
 * row they apply to, and every workflow — in one session, all started at once as the runner starts them.
 * In process, without vitest's runner: the fastest way to judge a target's set-up and deep rules as a run does.
 */
import { batchPartialCheck } from '../checks/batch-partial.ts'
import { bodyKeysCheck } from '../checks/body-keys.ts'
import { shapeCheck } from '../checks/shape.ts'
import { CATALOG } from '../spec/catalog/index.ts'
import type { Session } from '../shop/session.ts'
import { WORKFLOWS } from '../workflows/index.ts'
import { runWorkflow } from '../workflows/run-steps.ts'
import { resultId } from '../results/result.ts'
import type { Status } from '../results/verdict.ts'

const DETAIL_CHECKS = [bodyKeysCheck, shapeCheck, batchPartialCheck] as const

interface DetailVerdict {
  status: Status
  message: string
}

/** Result id (as in report.json) → status and message, for every detail-table check and workflow step. */
export async function runDetailChecks(session: Session): Promise<Map<string, DetailVerdict>> {
  const checks = DETAIL_CHECKS.flatMap((check) =>
    CATALOG.filter((row) => check.appliesTo(row) === true).map(async (row) => {
      const { status, message } = await check.run(row, session)
      return [resultId(row, check.name), { status, message }] as const
    }),
  )
  const workflows = WORKFLOWS.map(async (workflow) =>
    (await runWorkflow(workflow, session)).map(
      (o) =>
        [
          `workflow ${workflow.name} › ${o.ordinal} ${o.title}`,
          { status: o.verdict.status, message: o.verdict.message },
        ] as const,
    ),
  )
  const [checked, stepped] = await Promise.all([Promise.all(checks), Promise.all(workflows)])
  return new Map([...checked, ...stepped.flat()])
}

/** `id: status — message` of every result that did not pass: what a failing test shows. */
export function notPassed(verdicts: ReadonlyMap<string, DetailVerdict>): string[] {
  return [...verdicts].filter(([, v]) => v.status !== 'passed').map(([id, v]) => `${id}: ${v.status} — ${v.message}`)
}
