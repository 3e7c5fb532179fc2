import type { Session } from '../shop/session.ts'
import type { EndpointId } from '../spec/endpoint-id.ts'
import type { ProbeAnswers, ProbePlan } from '../shop/probe.ts'
import type { EndpointRow } from '../spec/types.ts'
import type { Rule } from '../spec/rules.ts'
import type { Verdict } from '../results/verdict.ts'
import type { ProbeSettings } from './probe.ts'

/** What of a run's settings decides whether a check kind can be judged at all (buildPlan's `not-configured`). */
export interface PlanSettings {
  /** A limited admin is configured (or the bundled target brings its own). */
  limitedAdmin: boolean
}

export interface Check {
  /** Public check name: in `--check`, test names, result ids and reports. Never changes. */
  name: string
  /** One line: the rule the check enforces. */
  description: string
  /** Spec sections the rule comes from (the row's own sections are added per result). */
  spec: readonly string[]
  /** Every rule the check can fail a target for, with the spec's words it enforces. */
  rules: readonly Rule[]
  /** `true`, or why the check does not apply to the row. */
  appliesTo(row: EndpointRow): true | string
  /**
   * `true`, or what the run's settings lack for the check to be judged anywhere (then its checks are not configured).
   */
  needs?(settings: PlanSettings): true | string
  /**
   * Catalog rows the check calls besides its rows' own, whose answers its verdicts rest on (set-up
   * and controls): a fault there can change them, so the faults' full runs keep such faults apart (fault-groups.ts).
   */
  alsoCalls?: readonly EndpointId[]
  run(row: EndpointRow, session: Session): Promise<Verdict>
}

/**
 * A kind whose requests are planned as data and judged by a pure function of their answers (Schemathesis's checks
 * are the model: a plain function handed the answer it judges). The sender sends the plan (lib/shop/sender.ts),
 * `--dry-run` prints it, and `run` is the one for every such kind (probe-check.ts).
 */
export interface ProbeCheck extends Check {
  /** What the kind reads at the row: sent once per session, shared with every kind that plans the same. */
  probes(row: EndpointRow, settings: ProbeSettings): ProbePlan
  /** `settings`: what of the run the verdict may name (the limited admin's role). */
  judge(row: EndpointRow, answers: ProbeAnswers, settings: ProbeSettings): Verdict
}
