/**
 * Set-up calls — never the calls a check judges — are made again, a bounded number of times, when the target
 * gave nothing usable: no answer (a timeout, a reset), a server error, or a deadlock (deadlock.ts: the same call
 * succeeds when repeated, observed on a 2.4.7 instance). Otherwise one slow or contended answer flips a verdict
 * between two identical runs.
 *
 * A repeat must not make a second entity. So each call says how it may be repeated: `safe` (a read, or a write
 * that sets the same state however often), `if-nothing-made` (a write that makes something each time: only
 * after a refusal that says nothing was made — a deadlock does not say it: the run could not check what the
 * attempt changed), `find` (a creation that can be looked up: before each repeat, look for what the earlier
 * attempt may have made, and take it when it is there), or `never` (a judged call).
 */
import { describeOutcome } from './answer-text.ts'
import { isDeadlock } from './deadlock.ts'
import type { Exchange } from '../results/exchange.ts'
import type { Answer, Outcome } from './request.ts'
import { defined } from '../base/defined.ts'

/** Three attempts: a deadlock clears in milliseconds, and a cold shop answers in time at the second try. */
export const SETUP_ATTEMPTS = 3

/** Between attempts after a server error or a deadlock: long enough for the competing transaction to commit. */
const SETUP_PAUSE_MS = 100

/** What an earlier attempt may have made, looked up before a creation is repeated. */
export interface Found {
  /** The entity as the lookup answered it: taken as the creation's answer. */
  body: unknown
  exchanges: Exchange[]
}

export interface Lookup {
  /** The entity when it is there, else only the lookup's exchanges (a lookup that gets no answer finds nothing). */
  find(): Promise<Found | { exchanges: Exchange[] }>
}

export type Repeat = 'never' | 'safe' | 'if-nothing-made' | Lookup

/** Why an attempt is worth repeating, and whether the target may have made something all the same. */
export interface Trouble {
  kind: 'no answer' | 'server error' | 'rolled back'
  made: 'nothing' | 'perhaps'
  text: string
}

/**
 * The trouble of an outcome that may go away, or undefined for an answer that stands (a success, or a refusal
 * that would come again). A target gone or still rate limited after the client's own waiting is not asked again.
 */
export function troubleOf(outcome: Outcome): Trouble | undefined {
  const answer = outcome.answer
  if (answer === undefined) {
    const kind = outcome.failure?.kind
    if (kind === 'target-gone' || kind === 'rate-limited') return undefined
    // Refused at connect: the request never reached the shop.
    const made = kind === 'connection' && /ECONNREFUSED/.test(outcome.failure?.message ?? '') ? 'nothing' : 'perhaps'
    return { kind: 'no answer', made, text: `no answer (${outcome.failure?.message ?? 'transport failure'})` }
  }
  // A deadlock first: a shop in developer mode answers one as a 500 with the database's words.
  if (isDeadlock(answer)) return { kind: 'rolled back', made: 'perhaps', text: describeOutcome(outcome) }
  if (answer.status >= 500) return { kind: 'server error', made: 'perhaps', text: describeOutcome(outcome) }
  return undefined
}

export interface Repeated {
  /** The accepted answer (of the last attempt, or what a lookup found), or undefined when none came. */
  answer?: Answer
  /** The exchange of that answer (the lookup's when found). */
  exchange?: Exchange
  /** Every exchange, attempts and lookups, in order: the evidence when the set-up still fails. */
  exchanges: Exchange[]
  /** The outcome of the last attempt sent. */
  last: Outcome
  /** One line per attempt that did not give the answer, e.g. `1: no answer (…)`. */
  history: string[]
  /** Set when the answer is what a lookup found after an attempt that gave no answer. */
  found?: true
}

interface RepeatOptions {
  /** Between attempts after an answer, times the attempt's number. Default SETUP_PAUSE_MS. */
  pauseMs?: number
  /**
   * After an attempt that got no answer, how long a creation's lookup keeps looking before the creation is repeated:
   * a shop that serves few requests at a time may still hold the first attempt in its queue, and a repeat sent
   * meanwhile makes a second entity: the deadline of the call's kind (asked when it is needed: it grows with the shop's
   * slow answers, lib/shop/deadlines.ts). Default 0 (look once).
   */
  graceMs?: number | (() => number)
  /** Told of each trouble worth another attempt, as it happens (the provisioner paces by it). */
  onTrouble?: (trouble: Trouble) => void
}

/**
 * Sends until `accept` takes an answer, the trouble is not one that goes away (or not one `repeat` allows
 * repeating after), or SETUP_ATTEMPTS are used up.
 */
export async function sendRepeating(
  send: () => Promise<Outcome>,
  accept: (a: Answer) => boolean,
  repeat: Repeat,
  options: RepeatOptions = {},
): Promise<Repeated> {
  const pauseMs = options.pauseMs ?? SETUP_PAUSE_MS
  const exchanges: Exchange[] = []
  const history: string[] = []
  let last: Outcome | undefined
  let perhapsMade = false
  const look = async (): Promise<Repeated | undefined> => {
    if (typeof repeat !== 'object') return undefined
    const lookup = await repeat.find()
    exchanges.push(...lookup.exchanges)
    if (!('body' in lookup)) return undefined
    const answer: Answer = {
      status: 200,
      headers: {},
      body: lookup.body,
      json: true,
      text: JSON.stringify(lookup.body) ?? '',
    }
    const exchange = lookup.exchanges.at(-1)
    return {
      answer,
      ...(exchange !== undefined ? { exchange } : {}),
      exchanges,
      // A lookup comes only after an attempt was sent.
      last: defined(last, 'the outcome of the attempt before the lookup'),
      history,
      found: true,
    }
  }
  /**
   * After no answer, the first attempt may still be queued at the shop: looked for again, at growing intervals, for
   * `graceMs`.
   */
  const lookPatiently = async (trouble: Trouble | undefined): Promise<Repeated | undefined> => {
    let found = await look()
    let waited = 0
    const grace = trouble?.kind === 'no answer' ? graceOf(options.graceMs) : 0
    for (let step = 500; found === undefined && trouble?.kind === 'no answer' && waited < grace; step *= 2) {
      const wait = Math.min(step, grace - waited)
      await new Promise((r) => setTimeout(r, wait))
      waited += wait
      found = await look()
    }
    return found
  }
  let lastTrouble: Trouble | undefined
  for (let attempt = 1; attempt <= SETUP_ATTEMPTS; attempt++) {
    if (attempt > 1) {
      const found = await lookPatiently(lastTrouble)
      if (found !== undefined) return found
    }
    last = await send()
    exchanges.push(last.exchange)
    if (last.answer !== undefined && accept(last.answer))
      return { answer: last.answer, exchange: last.exchange, exchanges, last, history }
    const trouble = (lastTrouble = troubleOf(last))
    // One line per attempt, whatever the answer's text holds: the reason a check is not judged is one line.
    history.push(`${attempt}: ${trouble?.text ?? describeOutcome(last)}`.replace(/\s+/g, ' '))
    perhapsMade ||= trouble?.made === 'perhaps'
    if (trouble !== undefined) options.onTrouble?.(trouble)
    if (trouble === undefined || repeat === 'never' || (repeat === 'if-nothing-made' && trouble.made !== 'nothing'))
      break
    if (attempt < SETUP_ATTEMPTS && last.answer !== undefined)
      await new Promise((r) => setTimeout(r, pauseMs * attempt))
  }
  // A slow shop may still have been making it when the lookup came, and refused the repeat as a duplicate:
  // one more look before giving up.
  if (perhapsMade) {
    const found = await look()
    if (found !== undefined) return found
  }
  // SETUP_ATTEMPTS ≥ 1: the loop sent at least once.
  return { exchanges, last: defined(last, 'the outcome of the last attempt'), history }
}

/** How long a lookup keeps looking after no answer: `graceMs` as given, asked now when it is a function, else 0. */
function graceOf(patience: RepeatOptions['graceMs']): number {
  if (typeof patience === 'function') return patience()
  return patience ?? 0
}
