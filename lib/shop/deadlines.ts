import type { CallKind, DeadlinesUsed, Slowest } from '../results/deadlines.ts'
import { isHeavyWrite } from './pace.ts'

/**
 * How long the run waits for an answer (issue 29: deadlines that fit the shop). A real shop placed a guest order in
 * 13–16 s and registered a customer in 12–16 s while its reads took a fraction of a second: one fixed deadline either
 * gave up on the orders the shop went on to place, or waited a minute for a read that hangs. So each kind of call has
 * a deadline of its own, which follows what the shop has shown in this run:
 *
 *   deadline(kind) = max(--timeout-ms, min(--max-timeout-ms, FACTOR × the slowest answer of that kind so far))
 *
 * A call that timed out counts as at least the deadline it had: a kind that times out is given FACTOR times longer
 * next (up to the ceiling). A call in flight keeps waiting while its kind's deadline grows (the client looks again
 * when its first deadline is reached): calls sent side by side before the first slow answer came need not time out.
 */

const CALL_KINDS: readonly CallKind[] = ['read', 'write', 'heavy write']

/** A kind's deadline is this many times its slowest answer so far (when that is above `--timeout-ms`). */
export const DEADLINE_FACTOR = 3

/** The kind of call whose deadline a request gets: a read, a heavy write (pace.ts, `isHeavyWrite`), any other write. */
export function callKind(method: string, path: string): CallKind {
  if (method === 'GET' || method === 'HEAD') return 'read'
  return isHeavyWrite(method, path) ? 'heavy write' : 'write'
}

export class Deadlines {
  readonly floorMs: number
  readonly ceilingMs: number
  readonly #slowest = new Map<CallKind, number>()
  readonly #longest = new Map<CallKind, number>()

  /**
   * `floorMs` is `--timeout-ms`; `ceilingMs` `--max-timeout-ms` (never below the floor: equal to it, every deadline is
   * the floor). `slowest`: what an earlier client of the run saw (the preflight's).
   */
  constructor(floorMs: number, ceilingMs: number = floorMs, slowest: Slowest = {}) {
    this.floorMs = floorMs
    this.ceilingMs = Math.max(floorMs, ceilingMs)
    for (const kind of CALL_KINDS) {
      const ms = slowest[kind]
      if (ms !== undefined && Number.isFinite(ms) && ms > 0) this.#slowest.set(kind, ms)
    }
  }

  /** The deadline of a call of `kind` sent now, in ms. */
  of(kind: CallKind): number {
    const slowest = this.#slowest.get(kind) ?? 0
    const ms = Math.round(Math.max(this.floorMs, Math.min(this.ceilingMs, DEADLINE_FACTOR * slowest)))
    if (ms > (this.#longest.get(kind) ?? 0)) this.#longest.set(kind, ms)
    return ms
  }

  /** An answer of `kind` came after `ms`, or none came within `ms` (a timeout: `ms` is the deadline it reached). */
  observe(kind: CallKind, ms: number): void {
    if (ms > (this.#slowest.get(kind) ?? 0)) this.#slowest.set(kind, ms)
  }

  /** The slowest answer of each kind so far. */
  get slowest(): Slowest {
    return Object.fromEntries(this.#slowest)
  }

  /** The longest deadline each kind was given so far (the floor for a kind never sent). */
  get used(): DeadlinesUsed {
    const longest = (kind: CallKind) => Math.max(this.floorMs, this.#longest.get(kind) ?? 0)
    return { read: longest('read'), write: longest('write'), heavyWrite: longest('heavy write') }
  }
}
