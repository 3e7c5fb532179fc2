import type { Check, Status, Verdict } from '../checks/types.ts'
import type { Exchange } from '../target/client.ts'
import type { EndpointRow } from '../spec/types.ts'

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
  exchanges: Exchange[]
  details?: Record<string, unknown>
  warnings?: string[]
}

export function resultId(row: Pick<EndpointRow, 'method' | 'path'>, check: string): string {
  return `${row.method} ${row.path} › ${check}`
}

export function toResult(row: EndpointRow, check: Check, verdict: Verdict, durationMs: number, alias?: string): Result {
  return {
    id: resultId(row, check.name),
    module: row.module,
    endpoint: { method: row.method, path: row.path, ...(alias !== undefined ? { alias } : {}) },
    check: check.name,
    status: verdict.status,
    message: verdict.message,
    durationMs,
    spec: [...check.spec, ...row.sections],
    exchanges: verdict.exchanges,
    ...(verdict.details !== undefined ? { details: verdict.details } : {}),
    ...(verdict.warnings !== undefined && verdict.warnings.length > 0 ? { warnings: verdict.warnings } : {}),
  }
}
