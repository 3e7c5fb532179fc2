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

/**
 * When and why a run stops early: SIGINT/SIGTERM, or its deadline, which is armed `stopReserveMs` before
 * the run's printed end so that stopping, cleanup and the reports fit before it. `onStop` is told once.
 */
export class RunStopper {
  readonly endsAt: number
  readonly whenStopped: Promise<Stop>
  #stopped: Stop | undefined
  #resolve!: (why: Stop) => void
  readonly #timer: NodeJS.Timeout
  readonly #onSigint = () => this.stop('SIGINT')
  readonly #onSigterm = () => this.stop('SIGTERM')
  readonly #onStop: (why: Stop) => void

  constructor(startedAt: number, runTimeoutMs: number, onStop: (why: Stop) => void) {
    this.endsAt = startedAt + runTimeoutMs
    this.#onStop = onStop
    this.whenStopped = new Promise((resolve) => (this.#resolve = resolve))
    process.on('SIGINT', this.#onSigint)
    process.on('SIGTERM', this.#onSigterm)
    this.#timer = setTimeout(() => this.stop('deadline'), Math.max(0, this.endsAt - stopReserveMs(runTimeoutMs) - Date.now()))
  }

  get stopped(): Stop | undefined {
    return this.#stopped
  }

  /** By when cleanup must be over, so the reports are written before the printed end. */
  get cleanupBy(): number {
    return this.endsAt - WRITE_RESERVE_MS
  }

  stop(why: Stop): void {
    if (this.#stopped !== undefined) return
    this.#stopped = why
    this.#onStop(why)
    this.#resolve(why)
  }

  /**
   * Vitest's logger exits the process on SIGINT/SIGTERM; an interrupt must clean up and write the partial
   * report first, so only the run's own handlers stay.
   */
  ownSignals(): void {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      for (const listener of process.listeners(signal)) if (listener !== this.#onSigint && listener !== this.#onSigterm) process.off(signal, listener)
    }
  }

  dispose(): void {
    clearTimeout(this.#timer)
    process.off('SIGINT', this.#onSigint)
    process.off('SIGTERM', this.#onSigterm)
  }
}

/** `work`, or undefined once `ms` have passed: stopping must not wait on a part that does not finish. */
export async function within<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined
  try {
    return await Promise.race([work, new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), Math.max(0, ms))))])
  } finally {
    clearTimeout(timer)
  }
}
