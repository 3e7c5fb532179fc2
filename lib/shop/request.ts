import type { Exchange } from '../results/exchange.ts'

/** What a client is asked to send and what it hands back: the types every part that sends or judges shares. */
export interface Answer {
  status: number
  headers: Record<string, string>
  /** Parsed JSON when the body is JSON, else the raw text. */
  body: unknown
  /** Whether the body parsed as JSON. */
  json: boolean
  text: string
}

/** `stopped`: the run was being stopped (deadline, Ctrl-C): not sent, or cut off while in flight. */
/**
 * `deadlock`: the shop answered a database deadlock to the same call twice (its transaction rolled back): no answer to
 * judge.
 */
export type TransportFailureKind =
  | 'timeout'
  | 'connection'
  | 'protocol'
  | 'rate-limited'
  | 'target-gone'
  | 'stopped'
  | 'deadlock'

export interface TransportFailure {
  kind: TransportFailureKind
  message: string
}

export interface Outcome {
  answer?: Answer
  failure?: TransportFailure
  exchange: Exchange
}

/** The values an answer must carry, and the name of the rule that says so: a fact of a request the evidence keeps. */
export interface RecordedCarries {
  values: Record<string, unknown>
  rule: string
}

export interface RequestSpec {
  method: string
  /** Path below `/rest/{store}`, e.g. `/V1/directory/countries`. */
  path: string
  store: string
  /** Bearer token to send; absent sends no Authorization header. */
  token?: string
  body?: unknown
  /** Already-encoded query string without `?`. */
  query?: string
  /**
   * The caller is one the endpoint's access class refuses (an access probe): a 401 then says nothing of the token, and
   * a shop that refuses as it must writes nothing, so the request waits for no turn of writes that deadlock side by
   * side (client.ts `send`).
   */
  refusalExpected?: boolean
  /** A set-up call, which its caller repeats as it may (retry.ts): the session repeats nothing of it itself. */
  ownRepeats?: boolean
  /** The set-up step a set-up call is made for: named where the run lists a server error it got (server-errors.ts). */
  step?: string
  /** The probe a check kind's planned call is (sender.ts): what the run's evidence tags it with (evidence.ts). */
  probe?: string
  /**
   * What of the request a judge reads besides what its record holds — the values a valid call's answer must carry,
   * and the rule that says so (SHAPE_RULES' name) —: written beside it in the run's evidence (`_carries`), so that
   * `judge --har` judges its answer as the run did.
   */
  carries?: RecordedCarries
  /**
   * Told as the request leaves, after any wait for its turn: what a ledger records, so that a cleanup after a stop
   * waits for the creations a shop may still be making, not for those that never left (lib/setup/ledger.ts).
   */
  onSent?: () => void
}
