/** What cut a run short. */
export type Stop = 'SIGINT' | 'SIGTERM' | 'deadline'

/**
 * Kept at the very end for writing the reports at least (six formats of a full run take a few hundred ms on an idle
 * machine).
 */
export const WRITE_RESERVE_MS = 1_000

/**
 * What writing the reports takes, from its first step — the results redacted as JSON, what `budgetWriting` of
 * lib/run/run.ts times —: then each of the six formats is rendered from them and redacted again. Measured at loads of 7
 * to 11 on two cores: a 2 MB partial report 570–1060 ms after a step of 20–48 ms, a 20 MB one 5.6–6.9 s after one of
 * 490–530 ms (answers of 20 kB each); a line through them, with a margin (a 5.8 MB one took 2.5 s after 93 ms at load
 * 12).
 */
const WRITE_FIXED_MS = 1_000
const WRITE_COST_FACTOR = 20

/**
 * The part of the reports' time that no first step shows, on a machine using no more than its cores: drafting the
 * report, rendering six formats, the evidence joined (its parts read, each entry redacted again). On a machine loaded
 * past its cores each takes as many times longer as the machine has more to run than cores — the step is timed once,
 * at one moment, and the rest comes after: at a load of 19 on two cores a run drafted and wrote a 2 MB report in 18 s
 * after a step of 116–352 ms, joined 2.1 MB of evidence in 1.1 s, and kept 8 s for it (issue 31.8).
 */
const IDLE_FIXED_MS = 400
/**
 * Joining the evidence, per MB of its parts, on a machine using no more than its cores (60 ms measured, with a margin).
 */
const EVIDENCE_MS_PER_MB = 150

/** What the reports' time is judged from, as the end nears. */
interface WritingSample {
  /** Wall time of the reports' first step on the results so far, just now. */
  redactedJsonMs: number
  /** The run's evidence so far (its parts' bytes), joined when the reports are written. */
  evidenceBytes?: number
  /** How many times more the machine has to run than it has cores (its 1-minute load over its cores), at least 1. */
  overload?: number
}

/** Within this of the printed end, the reports' writing is budgeted (before, the run has time enough not to ask). */
export const BUDGET_WITHIN_MS = 60_000

/**
 * The time kept before the printed end for writing the reports, from what their first step took just now on this
 * machine at its load: a machine loaded past its cores takes as much longer for both, and for what the step does not
 * show (drafting, rendering, the evidence) as many times longer as it is overloaded. At least WRITE_RESERVE_MS; the
 * cleanup is cut off this long before the end.
 */
export function writeReserveMs({ redactedJsonMs, evidenceBytes = 0, overload = 1 }: WritingSample): number {
  const slower = Math.max(1, overload)
  const unseen = slower * (IDLE_FIXED_MS + (EVIDENCE_MS_PER_MB * evidenceBytes) / 1_000_000)
  return Math.max(WRITE_RESERVE_MS, Math.ceil(Math.max(WRITE_FIXED_MS, unseen) + WRITE_COST_FACTOR * redactedJsonMs))
}

/**
 * Near the printed end, the reports' time is measured again this often (and the stop comes earlier when they need
 * more).
 */
export const BUDGET_EVERY_MS = 3_000

/**
 * Time kept before the printed end of a run for stopping the checks, cleaning up and writing the reports:
 * a tenth of the run, at least 3 s (cancelling the suite, a cleanup's round of DELETEs), at most a minute,
 * and never more than half the run. The deadline the run prints is the end of all of it.
 */
export function stopReserveMs(runTimeoutMs: number): number {
  return Math.min(Math.max(runTimeoutMs * 0.1, 3_000), 60_000, runTimeoutMs / 2)
}
