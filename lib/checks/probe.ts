/**
 * The check kinds' side of probes (lib/shop/probe.ts): what of the run's settings their plans depend on, the
 * placeholder call of a spec row, and how the judges read a probe's answer. Pure: the plans are data the sender
 * (lib/shop/sender.ts) sends and `--dry-run` prints, and the readings need nothing of the session.
 */
import { ADMISSION, isRefusal, unusableAnswer } from '../spec/admission.ts'
import { fillTemplate, placeholderFor } from '../spec/paths.ts'
import type { EndpointRow } from '../spec/types.ts'
import type { Exchange } from '../results/exchange.ts'
import type { NotJudgedReason } from '../results/verdict.ts'
import type { Probe, ProbeCall, ProbeCaller, PlannedCall, ProbeStore } from '../shop/probe.ts'
import { seedToken, type SessionSeed } from '../shop/session.ts'
import { describeOutcome } from '../shop/answer-text.ts'
import { conventionsOf } from '../setup/families/index.ts'

/**
 * What of a run's settings decides what the kinds send: known to the run from its session, to `--dry-run` from its
 * settings.
 */
export interface ProbeSettings {
  /** Only token calls and GET requests are sent. */
  readOnly: boolean
  /**
   * The limited admin who signs in (configured, or the bundled target's own): who, and the detail table's resources its
   * role has.
   */
  limitedAdmin?: { username: string; resources: readonly string[] }
  /**
   * The run has a customer token to read with, and one to write with (never the token of a customer the user
   * configured).
   */
  customer: { reads: boolean; writes: boolean }
}

/**
 * The settings a run's plans are made with, from its seed: the worker's session plans with them, and the run records
 * them in its evidence (`_run.probeSettings`) so that `judge --har` plans as the run did.
 */
export function probeSettingsOf(seed: SessionSeed): ProbeSettings {
  const limited = seed.limitedAdmin
  const token = (caller: ProbeCaller, options?: { write: boolean }) => seedToken(seed, caller, options)
  return {
    readOnly: seed.readOnly,
    ...(limited !== undefined && token('limited admin') !== undefined ? { limitedAdmin: limited } : {}),
    customer: { reads: token('customer') !== undefined, writes: token('customer', { write: true }) !== undefined },
  }
}

export function concretePath(row: Pick<EndpointRow, 'path'>): string {
  return fillTemplate(row.path, placeholderFor)
}

/**
 * Endpoints that revoke the caller's own tokens (platform conventions, Tokens; their family says so): probed with
 * a customer of the run's own, never with the token the rest of the run needs.
 */
export function revokesCallerTokens(row: EndpointRow): boolean {
  return conventionsOf(row).revokesCallerTokens === true
}

/** The placeholder call of a spec row as `caller` makes it: placeholder values in the path, `{}` for a POST or PUT. */
function placeholderCall(row: EndpointRow, caller: ProbeCaller): ProbeCall {
  const creates = conventionsOf(row).probeCreates
  return {
    method: row.method,
    path: concretePath(row),
    ...(row.method === 'POST' || row.method === 'PUT' ? { body: {} } : {}),
    ...(caller === 'customer' && revokesCallerTokens(row) ? { disposable: true as const } : {}),
    // A caller the row's class refuses: no reason to doubt its token on a 401, nor to wait for a cart's turn
    // (client.ts).
    ...(caller !== 'limited admin' && ADMISSION[row.access][caller] === 'refuse'
      ? { refusalExpected: true as const }
      : {}),
    ...(creates !== undefined ? { creates } : {}),
  }
}

/** A spec row's placeholder call as a plan has it. */
export function placeholder(row: EndpointRow, caller: ProbeCaller, store: ProbeStore = 'first'): PlannedCall {
  return { request: { caller, store }, call: placeholderCall(row, caller) }
}

type ProbeKind = 'no answer' | 'not sent' | 'no-route' | 'refused' | 'accepted'

/**
 * Why an answer tells nothing about who may call the endpoint or under which store code (undefined when it
 * does): no answer at all, a server error, a rate limit, or a body that is not the JSON the spec's payloads
 * are ("Payloads are JSON"). Never an access or store-code failure: a body that is not JSON is the route check's,
 * a server error no rule's (the run lists it; lib/shop/server-error.ts).
 * 401/403 and the no-route answer are judged by their status, whatever their body.
 */
export function unusable(p: Probe): string | undefined {
  return p.unavailable !== undefined ? undefined : unusableAnswer(p.answer, quoteAnswer(p))
}

export function classify(p: Probe): ProbeKind {
  if (p.unavailable !== undefined) return 'not sent'
  if (p.answer === undefined) return 'no answer'
  if (p.noRoute === true) return 'no-route'
  if (isRefusal(p.answer.status)) return 'refused'
  return 'accepted'
}

/** `404 "No such entity …"`: how an answer is quoted in messages. */
export function quoteAnswer(p: Probe): string {
  return p.unavailable !== undefined ? `not sent (${p.unavailable})` : describeOutcome(p)
}

export function exchangesOf(...probes: Probe[]): Exchange[] {
  return probes.flatMap((p) => (p.exchange !== undefined ? [p.exchange] : []))
}

/** The reason code of a probe that was not sent, for a verdict left unjudged by it. */
export function unjudgedFor(p: Probe): { reason?: NotJudgedReason } {
  return p.unavailableReason !== undefined ? { reason: p.unavailableReason } : {}
}
