import type { Session } from '../shop/session.ts'
import type { EndpointRow } from '../spec/types.ts'
import type { Rule } from '../spec/rules.ts'
import type { Verdict } from '../results/verdict.ts'

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
   * Endpoints (`METHOD /V1/path`) the check calls besides its rows' own, whose answers its verdicts rest on (set-up
   * and controls): a fault there can change them, so the faults' full runs keep such faults apart (fault-groups.ts).
   */
  alsoCalls?: readonly string[]
  run(row: EndpointRow, session: Session): Promise<Verdict>
}
