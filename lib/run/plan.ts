import { CHECKS } from '../checks/index.ts'
import { CATALOG, rowId } from '../spec/catalog/index.ts'
import { WORKFLOWS } from '../workflows/index.ts'
import { resultId, toResult, workflowStepId, type Result } from '../results/result.ts'
import type { Check } from '../checks/types.ts'
import type { EndpointRow } from '../spec/types.ts'

/**
 * The checks of the suite: every catalog row × every check kind that applies to it, plus every step of
 * every workflow. This is the one definition behind "N of M checks selected" (the report's scope), `list`
 * and `--dry-run`; the registration of the tests follows the same rule (register.ts). Plain data from the
 * catalog, the check registry and the workflows, so it can become the run's plan as data later.
 */
export interface PlannedCheck {
  /** The result id the check will have: `<METHOD> <path> › <check>` or `workflow <name> › <nn> <title>`. */
  id: string
  module: string
  check: string
  /** `METHOD /V1/path` of the catalog row it exercises (a workflow step without an endpoint has none). */
  endpoint?: string
}

/** What a run selects: module ids and check kinds (`workflow` for the workflows); an empty list means all. */
export interface Selection {
  modules: readonly string[]
  checks: readonly string[]
}

export const WHOLE_SUITE: Selection = { modules: [], checks: [] }

export function plannedChecks(selection: Selection = WHOLE_SUITE): PlannedCheck[] {
  const module = (id: string) => selection.modules.length === 0 || selection.modules.includes(id)
  const kind = (name: string) => selection.checks.length === 0 || selection.checks.includes(name)
  const endpointChecks = CATALOG.filter((row) => module(row.module)).flatMap((row) =>
    CHECKS.filter((c) => kind(c.name) && c.appliesTo(row) === true).map((c) => ({ id: resultId(row, c.name), module: row.module, check: c.name, endpoint: rowId(row) })),
  )
  const steps = kind('workflow')
    ? WORKFLOWS.filter((w) => module(w.module)).flatMap((w) =>
        w.steps.map((step, i) => ({ id: workflowStepId(w.name, i, step.title), module: w.module, check: 'workflow', ...(step.endpoint !== undefined ? { endpoint: step.endpoint } : {}) })),
      )
    : []
  return [...endpointChecks, ...steps]
}

/** The results of checks that do not apply to their endpoint (the spec shows nothing for them to judge). */
export function notApplicableResults(rows: readonly EndpointRow[], checks: readonly Check[], alias: (path: string) => string): Result[] {
  return rows.flatMap((row) =>
    checks.flatMap((check) => {
      const applies = check.appliesTo(row)
      if (applies === true) return []
      const target = alias(row.path)
      return [toResult(row, check, { status: 'skipped', message: applies, exchanges: [] }, 0, target !== row.path ? target : undefined, false)]
    }),
  )
}
