/** What cut a run short. */
export type Stop = 'SIGINT' | 'SIGTERM' | 'deadline'

/** Kept at the very end for writing the reports (six formats of a full run take a few hundred ms). */
export const WRITE_RESERVE_MS = 1_000

/**
 * Time kept before the printed end of a run for stopping the checks, cleaning up and writing the reports:
 * a tenth of the run, at least 3 s (cancelling the suite, a cleanup's round of DELETEs), at most a minute,
 * and never more than half the run. The deadline the run prints is the end of all of it.
 */
export function stopReserveMs(runTimeoutMs: number): number {
  return Math.min(Math.max(runTimeoutMs * 0.1, 3_000), 60_000, runTimeoutMs / 2)
}
