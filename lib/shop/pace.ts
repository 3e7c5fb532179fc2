/**
 * How much the run asks of a shop at once (issue 21: a slow shop is not a failing shop). A real shop serves a few
 * requests at a time and takes seconds to place an order; a run that keeps 8 placements in flight on a shop of 8
 * PHP workers makes everything behind them wait past the deadline, and blames the shop for it. So:
 *
 * - slow is not overloaded (issue 29): a shop slowed by its other tenants is as slow at one request in flight as at
 *   eight, and fewer requests would only make the run longer. So the bound follows what the run's own load does to
 *   the shop: when answers come much slower than they did, the run tries half as many in flight for a while, and
 *   keeps them fewer only when answers come faster so (the run was queueing at the shop); otherwise it goes back and
 *   takes the slower time as the shop's usual. A shop that says it is overloaded (429, 503) gets half as many at
 *   once. When answers are back to their usual time, one more (up to `--concurrency`);
 * - heavy writes — an order placed, an invoice, a refund, a product saved, a shipment — hold a worker for seconds: a
 *   quarter of the bound of them at once to start with (at least one), more only while more of them at once get more of
 *   them done and none passes its deadline (twice as many while more cost nothing, then one more at a time) (a shop
 *   whose cores they share answers each the slower: no gain; one slowed by other tenants answers each as slowly: a
 *   gain), never the whole bound;
 * - writes the platform deadlocks on when they run side by side (attribute sets: `eav_entity_attribute`) go one at
 *   a time;
 * - `--max-rps` caps the rate outright, for a shop behind a rate-limiting gateway (a 429 is still waited out).
 */
import { defined } from '../base/defined.ts'

/** Light answers a window's median is read over. */
const WINDOW = 20
/** Slower than this many times the usual time (and than SLOW_MS more): the run tries fewer requests in flight. */
const SLOW_FACTOR = 3
const SLOW_MS = 250
/** Within this many times the usual time: the shop keeps up, one more request may go. */
const FAST_FACTOR = 1.5
/**
 * With half as many in flight, answers this much faster (or more): the run's own load was what slowed the shop. A
 * shop queueing the run's requests answers about in proportion to how many wait (half as many: about half as slow).
 */
const OWN_LOAD_FACTOR = 0.7
/** Below this median no answer is queued long enough at a shop to be worth a trial with fewer in flight. */
const TRIAL_FLOOR_MS = 100
/**
 * Heavy writes a heavy window is read over (a run makes a hundred or two, each taking seconds on a real shop): each
 * trial of more at once waits for this many to come back.
 */
const HEAVY_WINDOW = 3
/**
 * One more heavy write at once is kept only when it gets at least this share of the gain it would if each took as
 * long as before (one more of k: (k + 1) / k as much done at best): each may cost at most (k + 1) / (k + ½) as much.
 */
const HEAVY_GAIN_SHARE = 0.5
/** More heavy writes at once that cost at most this much more each cost nothing: the next trial may double. */
const FREE_COST = 1.1
/** Heavy writes that went with fewer at once a trial compares with: the latest. */
const HEAVY_REFERENCE = 8
/** Heavy windows after which a level that brought no gain may be tried again (the shop's load changes). */
const HEAVY_RETRY_WINDOWS = 6

/**
 * A write that holds a shop's worker for seconds: an order placed, an invoice, a shipment, a refund, a credit memo, a
 * product saved, a customer registered (a busy 2.4.7 instance: order placement 6–32 s, registration 12–16 s). The pace
 * keeps them apart (a share of the bound) and the deadlines give them their own (deadlines.ts).
 */
export function isHeavyWrite(method: string, path: string): boolean {
  if (method === 'GET' || method === 'HEAD') return false
  if (/\/(order|payment-information|invoice|refund|ship)$/.test(path)) return true
  if (method === 'POST' && (path === '/V1/creditmemo' || path === '/V1/products' || path === '/V1/customers'))
    return true
  return method === 'PUT' && /^\/V1\/products\/[^/]+$/.test(path)
}

/** Writes the platform deadlocks on side by side: one group, one at a time (observed: attribute set creation). */
export function sideBySideGroup(method: string, path: string): string | undefined {
  if (method === 'GET') return undefined
  return /^\/V1\/(eav\/attribute-sets|products\/attribute-sets)(\/|$)/.test(path) ? 'attribute sets' : undefined
}

/**
 * What kind of call a request is, so like is compared with like: its method and path, ids and run-made values left out.
 */
export function paceKey(method: string, path: string): string {
  return `${method} ${path
    .split('/')
    .map((s) => (/\d/.test(s) || s.length > 24 ? ':' : s))
    .join('/')}`
}

/**
 * One finished request as the pace reads it. A heavy one is a heavy write the shop did (a success) or did not finish
 * in time: a refusal of one is answered at once, and says nothing of what heavy writes cost the shop.
 */
interface PaceSample {
  /** How long it took (a timeout: the deadline it reached). */
  ms: number
  heavy: boolean
  /** Requests of its weight (heavy writes, or all) in flight when it started, itself included. */
  inFlight: number
  /** `paceKey` of the request. */
  key: string
  /** No answer within its deadline (`ms` is the deadline it reached). */
  timedOut?: boolean
  /** When it started (performance.now()): a trial reads only what started after it began. */
  startedAt: number
  /** The shop said it is overloaded: 429 Too Many Requests or 503 Service Unavailable. */
  overloaded?: boolean
  /** Requests of its weight were waiting for a place in the bound when it ended: more at once was possible. */
  demand?: boolean
}

/** A heavy write as the pace remembers it: how many went at once, how much slower than its kind's fastest. */
interface HeavySeen {
  inFlight: number
  /** Its time, and its kind's fastest time when it came back. */
  ms: number
  fastest: number
  timedOut: boolean
  demand: boolean
}

/** A trial of more heavy writes at once: from how many, the kinds seen before it, what went with more. */
interface HeavyTrial {
  from: number
  kinds: ReadonlySet<string>
  more: HeavySeen[]
}

/**
 * What heavy writes cost against their kinds' fastest: their time over their fastest times, summed — a write of
 * seconds weighs as much as it holds a worker. (A mean of each one's slowdown let a write of 40 ms that took 400 ms on
 * a busy machine — a registration where the shop answers those fast — outweigh three orders of 15 s each.)
 */
function slowdownOf(seen: readonly HeavySeen[]): number {
  return seen.reduce((a, x) => a + x.ms, 0) / seen.reduce((a, x) => a + x.fastest, 0)
}

/** What the pace tells: a limit changed (the bound applies it), and what a reader of the report should know. */
interface PaceEvents {
  changed(): void
  /** The run kept fewer requests in flight (and why), or found the shop slow but not overloaded by it. */
  note(text: string): void
}

/** The adaptive part: finished requests in, how many may be in flight (and how many heavy writes) out. */
export class Pace {
  readonly max: number
  #limit: number
  #heavy: number
  readonly #events: PaceEvents

  // Light answers: the window, the usual time (the fastest window's median), and a trial with fewer in flight.
  #recent: number[] = []
  #usual: number | undefined
  #trial: { from: number; slowMedian: number; since: number } | undefined
  /** Whether the run has tried once, early, if its first bound was more than the shop could serve. */
  #firstTrialDone = false

  // Heavy writes: each kind's fastest time, the last ones that went with at most the current number at once, a trial
  // of one more (from which number, what went with more), and the number that gained nothing last.
  readonly #fastest = new Map<string, number>()
  #fewer: HeavySeen[] = []
  #sinceDecision = 0
  #heavyTrial: HeavyTrial | undefined
  /** Whether the next trial is of twice as many: until more at once first cost something. */
  #doubling = true
  #noGainAt: { level: number; windows: number } | undefined

  constructor(max: number, events: Partial<PaceEvents> = {}) {
    this.max = max
    this.#limit = max
    this.#heavy = Math.max(1, Math.floor(max / 4))
    this.#events = { changed: () => {}, note: () => {}, ...events }
  }

  get limit(): number {
    return this.#limit
  }

  /** How many heavy writes may be in flight now: never the whole bound (the shop's other users keep a worker). */
  get heavy(): number {
    return Math.max(1, Math.min(this.#heavy, this.#limit - 1))
  }

  /** One finished request. */
  observe(sample: PaceSample): void {
    if (sample.overloaded === true) {
      this.#overloaded()
      return
    }
    if (sample.heavy) this.#observeHeavy(sample)
    else this.#observeLight(sample)
  }

  /** 429 or 503: the shop says so itself. Half as many at once, and no trial: the answer needs no reading. */
  #overloaded(): void {
    this.#trial = undefined
    this.#recent = []
    const limit = Math.max(1, Math.floor(this.#limit / 2))
    if (limit < this.#limit)
      this.#events.note(
        `the run lowered the requests it keeps in flight to ${limit} of ${this.max}: the shop answered that it is overloaded (429 or 503)`,
      )
    this.#set(limit)
  }

  /**
   * The median of a window decides, so one endpoint that hangs does not slow the run down, and a shop whose answers
   * all slow down is tried with fewer requests in flight: kept fewer only where that makes its answers faster.
   */
  #observeLight(sample: PaceSample): void {
    if (this.#trial !== undefined && sample.startedAt < this.#trial.since) return
    this.#recent.push(Math.round(sample.ms))
    if (this.#recent.length < WINDOW) return
    const median = defined([...this.#recent].sort((a, b) => a - b)[Math.floor(WINDOW / 2)], "the full window's middle")
    this.#recent = []
    const trial = this.#trial
    if (trial !== undefined) {
      this.#trial = undefined
      if (median <= trial.slowMedian * OWN_LOAD_FACTOR) {
        this.#usual = Math.min(this.#usual ?? median, median)
        this.#events.note(
          `the run kept ${this.#limit} of ${this.max} requests in flight: answers came faster with fewer (median ${median} ms at ${this.#limit}, ${trial.slowMedian} ms at ${trial.from}), so the run's own load was slowing the shop`,
        )
        return
      }
      // As slow with half as many: the shop is slow, not overloaded by the run. Back, and this is its usual time now.
      this.#events.note(
        `answers were as slow with fewer requests in flight (median ${median} ms at ${this.#limit}, ${trial.slowMedian} ms at ${trial.from}): the shop is slow, not overloaded by the run, which went on with ${trial.from}`,
      )
      this.#usual = median
      this.#set(trial.from)
      return
    }
    const first = this.#usual === undefined
    this.#usual = Math.min(this.#usual ?? median, median)
    const slow = median > this.#usual * SLOW_FACTOR + SLOW_MS
    // Once, early: a bound the shop could not serve from the first request on never shows a faster usual time.
    const early = first && !this.#firstTrialDone && median >= TRIAL_FLOOR_MS
    if ((slow || early) && this.#limit > 1) {
      this.#firstTrialDone = true
      this.#trial = { from: this.#limit, slowMedian: median, since: performance.now() }
      this.#set(Math.max(1, Math.floor(this.#limit / 2)))
    } else if (median <= this.#usual * FAST_FACTOR + SLOW_MS / 5 && this.#limit < this.max) {
      this.#set(this.#limit + 1)
    }
  }

  /**
   * Heavy writes are compared by what they cost: their time against their kinds' fastest, summed. More at once is
   * tried while some wait for a place, one more at a time, and kept only where the writes that went with one more at
   * once took hardly longer than those that went with fewer — then more at once gets more done (Little's law); a shop
   * whose cores they share takes each the longer, and gains nothing. A write past its deadline ends any trial.
   */
  #observeHeavy(sample: PaceSample): void {
    // A write past its deadline took longer than the deadline it reached: never its kind's fastest.
    const known = this.#fastest.get(sample.key)
    const fastest = Math.max(
      1,
      sample.timedOut === true ? (known ?? sample.ms) : Math.min(known ?? sample.ms, sample.ms),
    )
    if (sample.timedOut !== true) this.#fastest.set(sample.key, fastest)
    const seen = {
      inFlight: sample.inFlight,
      ms: sample.ms,
      fastest,
      timedOut: sample.timedOut === true,
      demand: sample.demand === true,
    }
    const trial = this.#heavyTrial
    if (trial === undefined) {
      this.#remember(seen)
      return
    }
    // A kind first seen in the trial says nothing of what more at once cost: its fastest time is one with more at once,
    // and its passing its deadline says the deadline was short (a kind's first write gets --timeout-ms), not the
    // number.
    const kindSeenBefore = trial.kinds.has(sample.key)
    if (seen.inFlight <= trial.from) {
      this.#remember(seen)
      if (!seen.timedOut || !kindSeenBefore) return
    } else if (kindSeenBefore) trial.more.push(seen)
    else return
    if (seen.timedOut) return this.#endHeavyTrial(trial, false)
    if (trial.more.length < HEAVY_WINDOW) return
    // `to` of `from` at once gets more done only if each costs less than (to / from) / (1 + ½ (to / from − 1)) times as
    // much: one more, (from + 1) / (from + ½); twice as many, 4/3.
    const before = this.#fewer.length === 0 ? 1 : slowdownOf(this.#fewer)
    const cost = slowdownOf(trial.more) / before
    const more = this.#heavy / trial.from
    const kept = cost <= more / (1 + HEAVY_GAIN_SHARE * (more - 1))
    // As long as more at once cost nothing (a shop slowed by other tenants), twice as many are tried next; then one
    // more.
    if (!kept || cost > FREE_COST) this.#doubling = false
    this.#endHeavyTrial(trial, kept)
  }

  /**
   * A heavy write that went with at most the current number at once: what the next trial compares with; a raise when
   * due.
   */
  #remember(seen: HeavySeen): void {
    this.#fewer.push(seen)
    if (this.#fewer.length > HEAVY_REFERENCE) this.#fewer.shift()
    if (this.#heavyTrial !== undefined || ++this.#sinceDecision < HEAVY_WINDOW) return
    this.#sinceDecision = 0
    if (this.#noGainAt !== undefined && ++this.#noGainAt.windows >= HEAVY_RETRY_WINDOWS) this.#noGainAt = undefined
    this.#tryOneMore(this.#fewer.slice(-HEAVY_WINDOW))
  }

  /**
   * A trial of more heavy writes at once — twice as many while more have cost nothing so far, else one more — where
   * some waited for a place, none passed its deadline, and below the ceiling.
   */
  #tryOneMore(window: readonly HeavySeen[]): void {
    const ceiling = Math.min(this.max - 1, (this.#noGainAt?.level ?? Infinity) - 1)
    if (!window.some((x) => x.demand) || window.some((x) => x.timedOut) || this.#heavy >= ceiling) return
    this.#heavyTrial = { from: this.#heavy, kinds: new Set(this.#fastest.keys()), more: [] }
    this.#heavy = Math.min(ceiling, this.#doubling ? 2 * this.#heavy : this.#heavy + 1)
    this.#events.changed()
  }

  #endHeavyTrial(trial: HeavyTrial, kept: boolean): void {
    this.#heavyTrial = undefined
    this.#sinceDecision = 0
    if (kept) {
      // What went with more at once is what the next trial compares with; one more at once may be tried at once.
      this.#fewer = trial.more.slice(-HEAVY_REFERENCE)
      this.#tryOneMore(trial.more)
      return
    }
    this.#noGainAt = { level: this.#heavy, windows: 0 }
    this.#heavy = trial.from
    this.#events.changed()
  }

  #set(limit: number): void {
    if (limit === this.#limit) return
    this.#limit = limit
    this.#events.changed()
  }
}

/**
 * `--max-rps` as data: the cap, and the memory that holds when the next request may start (epoch µs). The run makes
 * one and hands it to every client it makes — the preflight's, the schema read's and the cleanup's in the main thread,
 * the checks' session in vitest's worker thread (a SharedArrayBuffer crosses to it shared) — so that the cap holds
 * across them all, from the first token call to the last cleanup call.
 */
export interface RateShare {
  maxRps: number
  next: SharedArrayBuffer
}

/**
 * The run's one rate share (none without a cap); `fromMs`: no request before then (a cleanup process continues the
 * run's).
 */
export function rateShare(maxRps: number | undefined, fromMs = 0): RateShare | undefined {
  if (maxRps === undefined) return undefined
  const next = new SharedArrayBuffer(8)
  new BigInt64Array(next)[0] = BigInt(Math.round(fromMs * 1000))
  return { maxRps, next }
}

/**
 * When the share's next request may start (epoch ms): where a process that continues the run's requests starts from.
 */
export function nextStartMs(share: RateShare): number {
  return Number(Atomics.load(new BigInt64Array(share.next), 0)) / 1000
}

/** `--max-rps`: requests start at least 1/N s apart, whichever client of the run (in whichever thread) sends them. */
export class RateCap {
  readonly #intervalUs: bigint
  readonly #next: BigInt64Array | undefined

  constructor(share: RateShare | undefined) {
    this.#intervalUs = share === undefined ? 0n : BigInt(Math.round(1_000_000 / share.maxRps))
    this.#next = share === undefined ? undefined : new BigInt64Array(share.next)
  }

  /**
   * Waits for the request's turn (taken atomically: two threads never get the same one); none once `stopping` is
   * aborted.
   */
  async take(stopping?: AbortSignal): Promise<void> {
    const next = this.#next
    if (next === undefined) return
    while (stopping?.aborted !== true) {
      const now = BigInt(Date.now()) * 1000n
      const seen = Atomics.load(next, 0)
      // Stopped while it waits: its request is not sent (the client says why), and it need not wait its turn.
      if (seen > now) {
        await waitUnlessStopped(Number(seen - now) / 1000, stopping)
        continue
      }
      // A turn is taken when its request can leave, not booked ahead: a thread a loaded machine held up past several
      // booked turns would send them all at once, a burst past the cap at the shop (safety.test, at load 8).
      if (Atomics.compareExchange(next, 0, seen, now + this.#intervalUs) === seen) return
    }
  }
}

/** Waits `ms`, or until `stopping` is aborted. */
function waitUnlessStopped(ms: number, stopping: AbortSignal | undefined): Promise<void> {
  return new Promise((done) => {
    const end = () => {
      clearTimeout(timer)
      stopping?.removeEventListener('abort', end)
      done()
    }
    const timer = setTimeout(end, ms)
    stopping?.addEventListener('abort', end, { once: true })
  })
}
