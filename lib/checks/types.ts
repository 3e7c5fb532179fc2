import type { Exchange } from '../target/client.ts'
import type { Session } from '../target/session.ts'
import type { EndpointRow } from '../spec/types.ts'
import type { Rule } from '../spec/rules.ts'

export type Status = 'passed' | 'failed' | 'skipped'

/** A check's judgement of one endpoint, with the exchanges that show why. */
export interface Verdict {
  status: Status
  /** One or two sentences a QA engineer can act on. */
  message: string
  exchanges: Exchange[]
  /** Check-specific evidence (e.g. the access matrix), shown by the reports. */
  details?: Record<string, unknown>
  /** Things worth a look that are not failures. */
  warnings?: string[]
  /** The rules this verdict judged, with their spec words (default: the check's `rules`). */
  rules?: Rule[]
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
  run(row: EndpointRow, session: Session): Promise<Verdict>
}
