/**
 * What a probe is: a request a check kind plans (who calls, under which store code, what is sent) and how it went.
 * The kinds say what they want sent as data (`ProbePlan`), the sender (sender.ts) sends it, and the judges read
 * the answers (`ProbeAnswers`) without the network. Here, below the checks, so the shop's one sender needs none of
 * them; `--dry-run` prints the same plans.
 */
import type { Exchange } from '../results/exchange.ts'
import type { NotJudgedReason } from '../results/verdict.ts'
import type { HttpMethod } from '../spec/types.ts'
import { endpointText } from '../spec/endpoint-id.ts'
import type { Answer, TransportFailure } from './request.ts'

/** The four callers of the spec's access rules. */
export type Caller = 'none' | 'malformed' | 'customer' | 'admin'

/** Whom a probe is sent as: one of the four, or the admin whose role lacks some ACL resources (the acl check's). */
export type ProbeCaller = Caller | 'limited admin'

/** Who a valid request is sent as: the probe callers, or a customer who does not own what the path names. */
export type SequenceCaller = ProbeCaller | 'other customer'

/** Under which of the run's two store codes: the configured one, or the second (`--second-store`). */
export type ProbeStore = 'first' | 'second'

/** Who calls, under which store code. */
export interface ProbeRequest {
  caller: ProbeCaller
  store: ProbeStore
}

/** What a planned call sends, before any token or store code. */
export interface ProbeCall {
  method: HttpMethod
  /** The path with its values filled (placeholders, lib/spec/paths.ts), before aliases. */
  path: string
  /**
   * POST and PUT send `{}`; the admin's request at a `mine` write, data the shop refuses
   * (lib/setup/requests/mine-admin.ts).
   */
  body?: Record<string, unknown>
  /** Made with a customer of the run's own whose tokens the call may revoke, never the run's customer. */
  disposable?: true
  /** Sent to a caller meant to be refused: a 401 then says nothing about whether the token expired. */
  refusalExpected?: true
  /** What a success creates (a cart), which the ledger records before it is sent: the sender's hook names it. */
  creates?: string
}

/** One call of a plan: a request and what it sends. */
export interface PlannedCall {
  request: ProbeRequest
  call: ProbeCall
}

/**
 * A request made of the run's own data (a valid request, lib/setup/requests), sent as several callers in order:
 * the groups one after another, the callers of a group at once. The witness — the caller the endpoint's class
 * admits — goes last, and the others' answers are read against its success. A success may use up what the
 * request names (a removal, an order placed, an assignment): with `again: 'fresh'` the next group gets a request
 * prepared anew, and so does, one by one, each other caller of that group whose answer was neither a success nor a
 * refusal (what it got may be about the used-up request).
 */
export interface SequencePlan {
  method: HttpMethod
  /** The spec's path template: its values are the run's own data, known only as the run goes. */
  template: string
  groups: readonly (readonly SequenceCaller[])[]
  witness: SequenceCaller
  again: 'reuse' | 'fresh'
  /** Callers left out where the run has no token for them; any other caller without one is recorded as not sent. */
  optional: readonly SequenceCaller[]
  /** Sequences of one lane are sent one after another, never side by side (the recipe's `lane`). */
  lane?: string
  /** Known before anything is sent: no valid request can be made (no recipe, read-only mode), and why. */
  unbuildable?: { message: string; reason: NotJudgedReason }
  /**
   * Sent instead when no valid request can be made: placeholder calls, whose answers only a 401/403 can be read from.
   */
  fallback: readonly PlannedCall[]
}

/**
 * What a kind asks to have sent at a row: single calls at once, the row's valid request as a sequence, and calls
 * that wait for the sequence. What a rule speaks of but is not sent (a write withheld for safety) is said.
 */
export interface ProbePlan {
  calls: readonly PlannedCall[]
  sequence?: SequencePlan
  /** Sent once the sequence is done. */
  after?: readonly PlannedCall[]
  /** Callers the plan sends nothing to although the rule states what they get, and why. */
  withheld?: readonly { caller: Caller; why: string }[]
}

/**
 * A probe as it went: the answer (absent when none came) read against the target's own no-route and unknown-store
 * answers.
 */
export interface Probe {
  caller: ProbeCaller
  /** The store code it was sent under. */
  store: string
  /** The path sent (after aliases). */
  path: string
  answer?: Answer
  failure?: TransportFailure
  exchange?: Exchange
  /** Set when the probe could not be sent at all, with the reason. */
  unavailable?: string
  /** The same reason as a code, for the verdicts that leave a rule unjudged for it. */
  unavailableReason?: NotJudgedReason
  /** The answer is the target's no-route answer (its calibration). */
  noRoute?: boolean
  /** The answer is the target's unknown-store answer. */
  unknownStore?: boolean
}

/**
 * Why a valid request could not be made (the callers then got placeholder calls): why, the reason code, the set-up's
 * exchanges.
 */
export interface Unbuilt {
  message: string
  reason: NotJudgedReason
  exchanges: Exchange[]
}

/** How a sequence went: each caller's answer in the order sent (a caller left out is absent). */
export interface SequenceAnswers {
  probes: ReadonlyMap<SequenceCaller, Probe>
  witness: SequenceCaller
  /** Set when no valid request could be made. */
  unbuilt?: Unbuilt
}

/** The answers to a plan, for its kinds' judges. */
export interface ProbeAnswers {
  plan: ProbePlan
  /** By `callKey` of each planned call (`calls` and `after`). */
  calls: ReadonlyMap<string, Probe>
  sequence?: SequenceAnswers
}

/** What a call is sent once per session under: every kind planning the same call shares its answer. */
export function callKey(planned: PlannedCall): string {
  return `${endpointText(planned.call)} ${planned.request.caller} ${planned.request.store}`
}

/** The answer to a planned call, found by what it was (undefined when the plan did not have it). */
export function answerTo(
  answers: ProbeAnswers,
  method: HttpMethod,
  path: string,
  request: ProbeRequest,
): Probe | undefined {
  return answers.calls.get(callKey({ request, call: { method, path } }))
}

/** The Probe's caller of a sequence's caller: another customer is a customer token. */
export function probeCallerOf(caller: SequenceCaller): ProbeCaller {
  return caller === 'other customer' ? 'customer' : caller
}
