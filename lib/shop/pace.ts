/**
 * How much the run asks of a shop at once (issue 21: a slow shop is not a failing shop). A real shop serves a few
 * requests at a time and takes seconds to place an order; a run that keeps 8 placements in flight on a shop of 8
 * PHP workers makes everything behind them wait past the deadline, and blames the shop for it. So:
 *
 * - the bound adapts: when answers come much slower than they did, fewer requests are in flight (halved), and when
 *   they come back to their usual time, one more (up to `--concurrency`);
 * - heavy writes — an order placed, an invoice, a refund, a product saved, a shipment — hold a worker for seconds:
 *   never more than a quarter of the bound of them at once (at least one);
 * - writes the platform deadlocks on when they run side by side (attribute sets: `eav_entity_attribute`) go one at
 *   a time;
 * - `--max-rps` caps the rate outright, for a shop behind a rate-limiting gateway (a 429 is still waited out).
 */

/** Requests an answer time is read over: the usual time is the fastest such window's median seen. */
const WINDOW = 20
/** Slower than this many times the usual time (and than SLOW_MS more): the shop is queueing the run's requests. */
const SLOW_FACTOR = 3
const SLOW_MS = 250
/** Within this many times the usual time: the shop keeps up, one more request may go. */
const FAST_FACTOR = 1.5

/** A write that holds a shop's worker for seconds (platform: order placement 6–32 s on a busy 2.4.7 instance). */
export function isHeavyWrite(method: string, path: string): boolean {
  if (method === 'GET') return false
  if (/\/order$|\/payment-information$|\/invoice$|\/refund$|\/ship$/.test(path)) return true
  if (method === 'POST' && path === '/V1/creditmemo') return true
  return (method === 'POST' && path === '/V1/products') || (method === 'PUT' && /^\/V1\/products\/[^/]+$/.test(path))
}

/** Writes the platform deadlocks on side by side: one group, one at a time (observed: attribute set creation). */
export function sideBySideGroup(method: string, path: string): string | undefined {
  if (method === 'GET') return undefined
  return /^\/V1\/(eav\/attribute-sets|products\/attribute-sets)(\/|$)/.test(path) ? 'attribute sets' : undefined
}

/** The adaptive part: answer times in, the number of requests that may be in flight out. */
export class Pace {
  readonly max: number
  #limit: number
  #recent: number[] = []
  #usual: number | undefined
  /** Told each change of the limit (the bound applies it; the run may say it). */
  readonly onChange: (limit: number, why: string) => void

  constructor(max: number, onChange: (limit: number, why: string) => void = () => {}) {
    this.max = max
    this.#limit = max
    this.onChange = onChange
  }

  get limit(): number {
    return this.#limit
  }

  /** How many heavy writes may be in flight now. */
  get heavy(): number {
    return Math.max(1, Math.floor(this.#limit / 4))
  }

  /**
   * One finished request and how long it took (a timeout counts as the deadline it reached): the median of a window
   * decides, so one endpoint that hangs does not slow the run down, and a shop whose answers all slow down does.
   */
  observe(ms: number): void {
    this.#recent.push(Math.round(ms))
    if (this.#recent.length < WINDOW) return
    const median = [...this.#recent].sort((a, b) => a - b)[Math.floor(WINDOW / 2)]!
    this.#recent = []
    this.#usual = this.#usual === undefined ? median : Math.min(this.#usual, median)
    if (median > this.#usual * SLOW_FACTOR + SLOW_MS) this.#set(Math.max(1, Math.floor(this.#limit / 2)), `answers slowed down (median ${median} ms, usually ${this.#usual} ms)`)
    else if (median <= this.#usual * FAST_FACTOR + SLOW_MS / 5 && this.#limit < this.max) this.#set(this.#limit + 1, `answers back to their usual time (${median} ms)`)
  }

  #set(limit: number, why: string): void {
    if (limit === this.#limit) return
    this.#limit = limit
    this.onChange(limit, why)
  }
}

/** `--max-rps`: requests start at least this far apart (none waits without a cap). */
export class RateCap {
  readonly #intervalMs: number
  #next = 0

  constructor(maxRps: number | undefined) {
    this.#intervalMs = maxRps === undefined ? 0 : 1000 / maxRps
  }

  /** Waits for the request's turn. */
  async take(): Promise<void> {
    if (this.#intervalMs === 0) return
    const now = Date.now()
    const at = Math.max(now, this.#next)
    this.#next = at + this.#intervalMs
    if (at > now) await new Promise((r) => setTimeout(r, at - now))
  }
}
