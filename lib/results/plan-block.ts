/**
 * What a report records of the plan it was run from (report.json `plan`): the check kinds, the size of the
 * whole suite, and the checks this run selected. Certification, SARIF's rules and the result order read it
 * from here, so the reports never import the plan or the checks (lib/plan/ writes it, lib/report/ reads it).
 */

/** Where a check comes from: the spec (counted by certification), the shop's own schema (issue 12), a vendor's set. */
export type Origin = 'spec' | 'extension' | 'vendor'

export interface KindRecord {
  name: string
  /** One line: the rule the check kind enforces. */
  description: string
  /** Spec sections the rule comes from. */
  spec: string[]
  origin: Origin
}

export interface PlanBlock {
  /** Every check kind of the suite, in the order they run and are reported (`workflow` last). */
  kinds: KindRecord[]
  /** How many checks the whole suite has, per module and origin: the denominator of "N of M checks selected". */
  suite: { module: string; origin: Origin; checks: number }[]
  /** The modules this run's checks were selected from (a shard's share of them). */
  modules: string[]
  /** The checks this run selected: every one is required, with a result or counted as not judged. */
  selected: { id: string; module: string; origin: Origin }[]
  /** What narrowed the selection: `--module quote`, `--check access`, `shard 1/2`, `shard 2/3 missing`. */
  limitedBy: string[]
}
