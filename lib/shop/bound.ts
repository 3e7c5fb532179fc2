/**
 * The client's concurrency bound, in two lanes. Work started before its turn (the next suite files' checks,
 * lib/suite/lookahead.ts) only fills places the work whose turn it is leaves free: a request of it waits while
 * any request of current work waits. So starting work ahead keeps the bound busy through a module's last
 * chains without slowing the module that is running — whose results are the ones a stopped run can report.
 */

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

export class Bound {
  #active = 0
  readonly #current: (() => void)[] = []
  readonly #ahead: { lane: Lane; start: () => void }[] = []
  readonly #watched = new WeakSet<Lane>()

  constructor(readonly size: number) {}

  /** Runs `work` once a place is free; work of a lane still ahead only where no current work waits. */
  run<T>(work: () => Promise<T>, lane?: Lane): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const start = () => {
        this.#active++
        void (async () => work())().then(resolve, reject).finally(() => {
          this.#active--
          this.#next()
        })
      }
      if (lane === undefined || !lane.ahead) this.#current.push(start)
      else {
        this.#ahead.push({ lane, start })
        if (!this.#watched.has(lane)) {
          this.#watched.add(lane)
          lane.onBegin(() => this.#promote(lane))
        }
      }
      this.#next()
    })
  }

  /** A lane's turn began: its waiting requests join the current ones, in the order they came. */
  #promote(lane: Lane): void {
    const still = this.#ahead.filter((w) => w.lane !== lane)
    for (const w of this.#ahead) if (w.lane === lane) this.#current.push(w.start)
    this.#ahead.splice(0, this.#ahead.length, ...still)
  }

  #next(): void {
    while (this.#active < this.size) {
      const start = this.#current.shift() ?? this.#ahead.shift()?.start
      if (start === undefined) return
      start()
    }
  }
}
