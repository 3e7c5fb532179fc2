import type { EndpointRow } from '../spec/types.ts'
import type { Rule } from '../spec/rules.ts'
import type { Exchange } from './exchange.ts'
import type { Origin } from './plan-block.ts'
import type { NotJudgedReason, Status, Verdict } from './verdict.ts'
import { endpointText } from '../spec/endpoint-id.ts'

/** One check of one endpoint: the unit every report is made of. */
export interface Result {
  /** `<METHOD> <path> › <check>`: stable across runs, so baselines and diffs can key on it. */
  id: string
  module: string
  endpoint: {
    method: string
    /** Spec template, e.g. `/V1/creditmemo/:id`. */
    path: string
    /** The target's own path prefix where a configured alias replaced the spec's. */
    alias?: string
  }
  check: string
  status: Status
  message: string
  durationMs: number
  /** Spec sections the result enforces: the check's rule, then the endpoint's listing. */
  spec: string[]
  /** The rules judged, each with the spec's words it enforces (quoted exactly). */
  rules?: Rule[]
  exchanges: Exchange[]
  details?: Record<string, unknown>
  warnings?: string[]
  /**
   * False when the rule does not apply to the endpoint (the spec does not show what it would judge): skipped, and not
   * counted as unjudged.
   */
  applicable?: false
  /** Why a skipped result of a rule that applies was not judged (verdict.ts lists the codes). */
  reason?: NotJudgedReason
  /**
   * Absent for the spec's checks. A shop's extension operation (its published schema) or a vendor's check: never in the
   * spec's verdict.
   */
  origin?: Exclude<Origin, 'spec'>
  /** Set with `origin`: the result is not the spec's, whatever reads it (a format, a baseline, a CI gate). */
  extension?: true
}

/** What a result cites of the check kind that judged it (every `Check` is one): the result model needs no checks. */
interface JudgedBy {
  name: string
  spec: readonly string[]
  rules: readonly Rule[]
}

/** What a step's result cites of its workflow (every `Workflow` is one). */
interface WorkflowCitation {
  name: string
  module: string
  spec: readonly string[]
}

/** What a step's result cites of the step (every `WorkflowStep` is one); its endpoint is the row it is filed under. */
interface StepCitation {
  title: string
  rules?: readonly Rule[]
}

export function resultId(row: Pick<EndpointRow, 'method' | 'path'>, check: string): string {
  return `${endpointText(row)} › ${check}`
}

/** `workflow <name> › <nn> <title>`: the id of a workflow step's result. */
export function workflowStepId(workflow: string, index: number, title: string): string {
  return stepId(workflow, String(index + 1).padStart(2, '0'), title)
}

function stepId(workflow: string, ordinal: string, title: string): string {
  return `workflow ${workflow} › ${ordinal} ${title}`
}

export function toResult(
  row: EndpointRow,
  check: JudgedBy,
  verdict: Verdict,
  durationMs: number,
  alias?: string,
  applicable = true,
): Result {
  return {
    ...(applicable ? {} : { applicable: false as const }),
    id: resultId(row, check.name),
    module: row.module,
    endpoint: { method: row.method, path: row.path, ...(alias !== undefined ? { alias } : {}) },
    check: check.name,
    status: verdict.status,
    message: verdict.message,
    durationMs,
    spec: once([...check.spec, ...row.sections]),
    ...(applicable ? { rules: [...(verdict.rules ?? check.rules)] } : {}),
    exchanges: verdict.exchanges,
    ...(verdict.details !== undefined ? { details: verdict.details } : {}),
    ...(verdict.warnings !== undefined && verdict.warnings.length > 0 ? { warnings: verdict.warnings } : {}),
    ...(verdict.status === 'skipped' && verdict.reason !== undefined ? { reason: verdict.reason } : {}),
  }
}

/**
 * A workflow step's result: id `workflow <name> › <nn> <title>`, filed under `row`, the catalog row the step
 * exercises (a step on a set-up call under `- (workflow <name>)`).
 */
export function workflowResult(
  workflow: WorkflowCitation,
  ordinal: string,
  step: StepCitation,
  row: EndpointRow | undefined,
  verdict: Verdict,
  durationMs: number,
): Result {
  return {
    id: stepId(workflow.name, ordinal, step.title),
    module: workflow.module,
    endpoint:
      row !== undefined ? { method: row.method, path: row.path } : { method: '-', path: `(workflow ${workflow.name})` },
    check: 'workflow',
    status: verdict.status,
    message: verdict.message,
    durationMs,
    spec: once([...workflow.spec, ...(row?.sections ?? [])]),
    ...(step.rules !== undefined && step.rules.length > 0 ? { rules: [...step.rules] } : {}),
    exchanges: verdict.exchanges,
    ...(verdict.details !== undefined ? { details: verdict.details } : {}),
    ...(verdict.warnings !== undefined && verdict.warnings.length > 0 ? { warnings: verdict.warnings } : {}),
    ...(verdict.status === 'skipped' && verdict.reason !== undefined ? { reason: verdict.reason } : {}),
  }
}

/** A check's sections and its row's often name the same one: each is cited once. */
function once(sections: string[]): string[] {
  return [...new Set(sections)]
}
