/**
 * The client's concurrency bound, in two lanes. Work started before its turn (the next suite files' checks,
 * lib/vitest/lookahead.ts) only fills places the work whose turn it is leaves free: a request of it waits while
 * any request of current work waits. So starting work ahead keeps the bound busy through a module's last
 * chains without slowing the module that is running — whose results are the ones a stopped run can report.
 */
import { defined } from '../base/defined.ts'

/** The turn of some started work: ahead until `begin()`, then current for good. */
export class Lane {
  #ahead = true
  readonly #begun: (() => void)[] = []

  get ahead(): boolean {
    return this.#ahead
  }

  /** Its turn has come: its waiting requests go before any work still ahead. */
  begin(): void {
    if (!this.#ahead) return
    this.#ahead = false
    for (const f of this.#begun.splice(0)) f()
  }

  onBegin(f: () => void): void {
    if (this.#ahead) this.#begun.push(f)
  }
}

/** What a request is to the bound: a heavy write (an order, an invoice, a refund: bounded apart) or any other. */
type Weight = 'heavy' | 'light'

export class Bound {
  #active = 0
  #activeHeavy = 0
  readonly #current: { start: () => void; weight: Weight }[] = []
  readonly #ahead: { lane: Lane; start: () => void; weight: Weight }[] = []
  readonly #watched = new WeakSet<Lane>()
  readonly #limits: () => { size: number; heavy: number }

  /** `limits`: how many requests, and how many heavy writes, may be in flight now (read at each start). */
  constructor(limits: number | (() => { size: number; heavy: number })) {
    this.#limits = typeof limits === 'number' ? () => ({ size: limits, heavy: limits }) : limits
  }

  /** Runs `work` once a place is free; work of a lane still ahead only where no current work waits. */
  run<T>(work: () => Promise<T>, lane?: Lane, weight: Weight = 'light'): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const start = () => {
        this.#active++
        if (weight === 'heavy') this.#activeHeavy++
        void (async () => work())()
          .then(resolve, reject)
          .finally(() => {
            this.#active--
            if (weight === 'heavy') this.#activeHeavy--
            this.#next()
          })
      }
      if (lane === undefined || !lane.ahead) this.#current.push({ start, weight })
      else {
        this.#ahead.push({ lane, start, weight })
        if (!this.#watched.has(lane)) {
          this.#watched.add(lane)
          lane.onBegin(() => this.#promote(lane))
        }
      }
      this.#next()
    })
  }

  /** Requests in flight now: all of them, and the heavy writes among them. */
  get inFlight(): { all: number; heavy: number } {
    return { all: this.#active, heavy: this.#activeHeavy }
  }

  /** Whether requests of this weight wait for a place (current work's or work ahead's): more at once was possible. */
  waiting(weight: Weight): boolean {
    return this.#current.some((w) => w.weight === weight) || this.#ahead.some((w) => w.weight === weight)
  }

  /** The limits changed (the shop's pace): more may start now. */
  wake(): void {
    this.#next()
  }

  /** A lane's turn began: its waiting requests join the current ones, in the order they came. */
  #promote(lane: Lane): void {
    const still = this.#ahead.filter((w) => w.lane !== lane)
    for (const w of this.#ahead) if (w.lane === lane) this.#current.push({ start: w.start, weight: w.weight })
    this.#ahead.splice(0, this.#ahead.length, ...still)
  }

  #next(): void {
    for (;;) {
      const { size, heavy } = this.#limits()
      if (this.#active >= size) return
      // The first waiting request that may start: a heavy write waits while the heavy writes in flight are enough,
      // and lets the lighter requests behind it go.
      const fits = (w: { weight: Weight }) => w.weight === 'light' || this.#activeHeavy < heavy
      const queue = this.#current.some(fits) ? this.#current : this.#ahead
      const i = queue.findIndex(fits)
      if (i < 0) return
      const [w] = queue.splice(i, 1)
      defined(w, 'the waiting request just found').start()
    }
  }
}
