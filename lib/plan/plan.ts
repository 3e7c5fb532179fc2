import { extensionKinds, extensionRow } from '../checks/extension.ts'
import { CHECKS } from '../checks/index.ts'
import type { Check, PlanSettings } from '../checks/types.ts'
import { resultId, toResult, workflowStepId, type Result } from '../results/result.ts'
import type { KindRecord, Origin, PlanBlock } from '../results/plan-block.ts'
import { defined } from '../base/defined.ts'
import { CATALOG, rowId, rowOf } from '../spec/catalog/index.ts'
import type { EndpointId } from '../spec/endpoint-id.ts'
import type { EndpointRow } from '../spec/types.ts'
import { WORKFLOWS } from '../workflows/index.ts'
import type { Workflow } from '../workflows/types.ts'
import type { ExtensionOperation } from '../schema/extensions.ts'

export type { Origin } from '../results/plan-block.ts'

/**
 * The suite as data: every catalog row × every check kind that applies to it, plus every step of every
 * workflow, and — for every row × kind that is not planned — why not. Built once per process at import, no
 * I/O; read by the suite files, `list`, `--dry-run` and, through the report's `plan` block (planBlock), by
 * certification. Rows and kinds of issue 12's extensions and a vendor's set come in with an `origin` of
 * their own; certification counts `origin: 'spec'` only.
 */
export interface PlannedCheck {
  /** The result id the check will have: `<METHOD> <path> › <check>` or `workflow <name> › <nn> <title>`. Stable. */
  id: string
  module: string
  /** The check kind's name (`workflow` for a workflow step). */
  kind: string
  /**
   * The catalog row it exercises (a workflow step on a set-up call has none; a check of a row the run added, `added`).
   */
  endpoint?: EndpointId
  /**
   * The row a run added that it exercises: an extension operation (the shop's schema) or a vendor's endpoint (its
   * config). Known only in a run and never a catalog row, it has no endpoint id: the plan carries the row itself.
   */
  added?: PlanRow
  origin: Origin
}

export interface Unplanned extends PlannedCheck {
  /**
   * `not-applicable`: the spec shows nothing for the kind to judge there; `not-configured`: the run lacks a setting it
   * needs.
   */
  why: 'not-applicable' | 'not-configured'
  reason: string
}

export interface Plan {
  checks: readonly PlannedCheck[]
  unplanned: readonly Unplanned[]
  /** The check kinds the plan was built from, in the order they run and are reported (`workflow` last). */
  kinds: readonly KindRecord[]
  /** The rows it was built from, for the results of what does not apply (notApplicableResults). */
  rows: readonly EndpointRow[]
}

/** A row or check kind from outside the spec's catalog and registry carries its origin; the spec's need not. */
export type PlanRow = EndpointRow & { origin?: Origin }
export type PlanKind = Check & { origin?: Origin }

export interface PlanParts {
  rows: readonly PlanRow[]
  kinds: readonly PlanKind[]
  workflows: readonly Workflow[]
}

/** What a workflow step is reported as: one kind, whose rules are each step's own. */
const WORKFLOW_KIND: KindRecord = {
  name: 'workflow',
  description: 'A stateful workflow step does what the spec says, given what the earlier steps did.',
  spec: [],
  origin: 'spec',
}

/**
 * The plan of `parts`. Without `settings` every applicable check is planned (the suite as the spec makes it);
 * with them, a kind whose `needs` a setting lacks puts its checks in `unplanned`, `not-configured`, with what
 * it lacks.
 */
export function buildPlan(parts: PlanParts, settings?: PlanSettings): Plan {
  const checks: PlannedCheck[] = []
  const unplanned: Unplanned[] = []
  const lacking = new Map(
    parts.kinds.map((k) => [k.name, settings === undefined || k.needs === undefined ? true : k.needs(settings)]),
  )
  for (const row of parts.rows) {
    for (const kind of parts.kinds) {
      // A kind judges rows of its own origin only: the spec's checks read the spec's data of a row, an extension
      // operation has none, and a vendor's check is written for the vendor's rows.
      const origin = row.origin ?? 'spec'
      if ((kind.origin ?? 'spec') !== origin) continue
      const planned: PlannedCheck = {
        id: resultId(row, kind.name),
        module: row.module,
        kind: kind.name,
        ...(origin === 'spec' ? { endpoint: rowId(row) } : { added: row }),
        origin,
      }
      const applies = kind.appliesTo(row)
      const lacks = defined(lacking.get(kind.name), `what the ${kind.name} kind lacks (set for each kind above)`)
      if (applies !== true) unplanned.push({ ...planned, why: 'not-applicable', reason: applies })
      else if (lacks !== true) unplanned.push({ ...planned, why: 'not-configured', reason: lacks })
      else checks.push(planned)
    }
  }
  for (const w of parts.workflows) {
    w.steps.forEach((step, i) => {
      checks.push({
        id: workflowStepId(w.name, i, step.title),
        module: w.module,
        kind: WORKFLOW_KIND.name,
        ...(step.endpoint !== undefined ? { endpoint: step.endpoint } : {}),
        origin: 'spec',
      })
    })
  }
  const kinds = [
    ...parts.kinds.map((k) => ({
      name: k.name,
      description: k.description,
      spec: [...k.spec],
      origin: k.origin ?? 'spec',
    })),
    WORKFLOW_KIND,
  ]
  return { checks, unplanned, kinds, rows: parts.rows }
}

/** What the spec's suite is made of: the catalog, the check registry and the workflows. */
export const SUITE: PlanParts = { rows: CATALOG, kinds: CHECKS, workflows: WORKFLOWS }

/** The spec's suite, every applicable check planned. */
export const PLAN: Plan = buildPlan(SUITE)

/**
 * What a run adds to the spec's suite: the shop's extension operations (its published schema) and a vendor's config.
 */
interface Additions {
  operations?: readonly ExtensionOperation[]
  /** `--extensions-probe-writes`. */
  probeWrites?: boolean
  vendor?: { rows: readonly PlanRow[]; kinds: readonly PlanKind[] }
}

/**
 * What the run's start learned that the extensions' suite file needs (vitest `provide`, in memory; never a
 * token): the shop's extension operations, `--extensions-probe-writes`, the vendor's config file (each worker
 * loads it itself: its checks are functions), and the schema block's line for the file's describe name.
 */
export interface ExtensionFacts {
  operations: readonly ExtensionOperation[]
  probeWrites: boolean
  configFile?: string
  schema?: string
}

/**
 * The parts of a run's plan: the spec's suite, then the extension operations with their three kinds, then the vendor's.
 */
export function suiteWith(add: Additions): PlanParts {
  const operations = add.operations ?? []
  return {
    rows: [...SUITE.rows, ...operations.map(extensionRow), ...(add.vendor?.rows ?? [])],
    kinds: [
      ...SUITE.kinds,
      ...(operations.length > 0 ? extensionKinds({ probeWrites: add.probeWrites ?? false }) : []),
      ...(add.vendor?.kinds ?? []),
    ],
    workflows: SUITE.workflows,
  }
}

/** What a run selects. An absent list selects everything; an empty one nothing (a shard that got no module). */
export interface Selection {
  modules?: readonly string[]
  kinds?: readonly string[]
  /** The ids a runner selected (vitest's `-t`, an editor's test ids). */
  ids?: ReadonlySet<string>
}

export function selectPlan(plan: Plan, s: Selection): Plan {
  const keep = (p: PlannedCheck) =>
    (s.modules === undefined || s.modules.includes(p.module)) &&
    (s.kinds === undefined || s.kinds.includes(p.kind)) &&
    (s.ids === undefined || s.ids.has(p.id))
  return { ...plan, checks: plan.checks.filter(keep), unplanned: plan.unplanned.filter(keep) }
}

/** A selection from `--module`/`--check` as the settings hold them: an empty list there means all. */
export function selectionOf(modules: readonly string[], kinds: readonly string[]): Selection {
  return { ...(modules.length > 0 ? { modules } : {}), ...(kinds.length > 0 ? { kinds } : {}) }
}

/** `--module a,b`, `--check c`: how the flags narrowed the selection, as every report states it. */
export function flagLimits(plan: Plan, modules: readonly string[], kinds: readonly string[]): string[] {
  const all = modulesOf(plan)
  const everyModule = modules.length === all.length && all.every((m) => modules.includes(m))
  return [
    ...(modules.length > 0 && !everyModule ? [`--module ${modules.join(',')}`] : []),
    ...(kinds.length > 0 ? [`--check ${kinds.join(',')}`] : []),
  ]
}

/** The modules of the plan, in catalog order. */
function modulesOf(plan: Plan): string[] {
  return [...new Set([...plan.rows.map((r) => r.module), ...plan.checks.map((p) => p.module)])]
}

/**
 * What a report records of the plan (report.json `plan`): the kinds, the whole suite's size per module and
 * origin, and what `selection` selected of it — the certification's denominator and numerator, as data.
 */
export function planBlock(plan: Plan, selection: Selection, limitedBy: readonly string[]): PlanBlock {
  const sizes = new Map<string, { module: string; origin: Origin; checks: number }>()
  for (const p of plan.checks) {
    const key = `${p.module} ${p.origin}`
    const entry = sizes.get(key) ?? { module: p.module, origin: p.origin, checks: 0 }
    entry.checks++
    sizes.set(key, entry)
  }
  const chosen = selection.modules
  return {
    kinds: plan.kinds.map((k) => ({ ...k, spec: [...k.spec] })),
    suite: [...sizes.values()],
    modules: chosen !== undefined ? modulesOf(plan).filter((m) => chosen.includes(m)) : modulesOf(plan),
    selected: selectPlan(plan, selection).checks.map(({ id, module, origin }) => ({ id, module, origin })),
    limitedBy: [...limitedBy],
  }
}

/**
 * The row a planned check exercises: its catalog row, or the row the run added; none for a workflow step on a set-up
 * call.
 */
export function rowOfPlanned(p: PlannedCheck): PlanRow | undefined {
  return p.endpoint !== undefined ? rowOf(p.endpoint) : p.added
}

/** The results of the checks that do not apply to their row (the spec shows nothing for them to judge). */
export function notApplicableResults(plan: Plan, alias: (path: string) => string): Result[] {
  const kinds = new Map(plan.kinds.map((k) => [k.name, k]))
  return plan.unplanned.flatMap((u) => {
    const row = rowOfPlanned(u)
    const kind = kinds.get(u.kind)
    if (u.why !== 'not-applicable' || row === undefined || kind === undefined) return []
    const target = alias(row.path)
    return [
      toResult(
        row,
        { ...kind, rules: [] },
        { status: 'skipped', message: u.reason, exchanges: [] },
        0,
        target !== row.path ? target : undefined,
        false,
      ),
    ]
  })
}
