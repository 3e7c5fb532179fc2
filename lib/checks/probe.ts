import { isRefusal, unusableAnswer } from '../spec/admission.ts'
import { fillTemplate, placeholderFor } from '../spec/paths.ts'
import type { EndpointRow } from '../spec/types.ts'
import type { Exchange } from '../results/exchange.ts'
import type { Answer, TransportFailure } from '../shop/request.ts'
import { allowedInReadOnly, type ProbeCaller, type Session } from '../shop/session.ts'
import { describeOutcome } from '../shop/answer-text.ts'
import { provisionerOf, toId } from '../setup/provision.ts'
import { conventionsOf } from '../setup/families/index.ts'
import type { EntityKind } from '../setup/ledger.ts'
import type { NotJudgedReason } from '../results/verdict.ts'
import { endpointText } from '../spec/endpoint-id.ts'

/**
 * One call of an endpoint with placeholder values (lib/spec/paths.ts), as the route, store-code and access
 * checks make it.
 */
export interface Probe {
  caller: ProbeCaller
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
}

export { admittedCaller } from '../spec/admission.ts'

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

/**
 * One probe as a check kind plans it (`Check.requests`): who calls, under which of the run's two store codes.
 * `--dry-run` lists these without sending them; `probe()` sends them.
 */
export interface ProbeRequest {
  caller: ProbeCaller
  store: 'first' | 'second'
}

/** The call a probe makes, before any token or store code: what `probe()` sends and `--dry-run` prints. */
export interface ProbeCall {
  method: EndpointRow['method']
  /** The spec's path with placeholders filled (before aliases). */
  path: string
  body?: Record<string, never>
  /** Made with a customer of the run's own whose tokens the call may revoke, never the run's customer. */
  disposable: boolean
  /** What a successful call creates, which the ledger records before it is sent (the family's convention). */
  creates?: EntityKind
}

export function probeCall(row: EndpointRow, caller: ProbeCaller): ProbeCall {
  return {
    method: row.method,
    path: concretePath(row),
    ...(row.method === 'POST' || row.method === 'PUT' ? { body: {} } : {}),
    disposable: caller === 'customer' && revokesCallerTokens(row),
    ...(conventionsOf(row).probeCreates !== undefined ? { creates: conventionsOf(row).probeCreates } : {}),
  }
}

/** Sends one of a kind's planned probes at `row` (its `requests`). */
export function probeOne(session: Session, row: EndpointRow, request: ProbeRequest): Promise<Probe> {
  return probe(session, row, request.caller, request.store === 'first' ? session.seed.storeCode : session.seed.secondStoreCode)
}

/** Sends the probe once per session; every check asking for the same one shares the answer. */
export function probe(session: Session, row: EndpointRow, caller: ProbeCaller, store: string): Promise<Probe> {
  return session.memo(`probe ${endpointText(row)} ${caller} ${store}`, async (): Promise<Probe> => {
    const call = probeCall(row, caller)
    const path = session.targetPath(call.path)
    if (session.seed.readOnly && !allowedInReadOnly(row.method, row.path)) {
      return { caller, store, path, unavailable: `read-only mode sends no ${row.method} requests`, unavailableReason: 'read-only' }
    }
    const disposable = call.disposable
    const token = session.tokenFor(caller, { disposable, write: row.method !== 'GET' })
    if (caller === 'limited admin' && token === undefined) return { caller, store, path, unavailable: 'no limited admin configured', unavailableReason: 'not-configured' }
    if (caller !== 'none' && token === undefined) {
      const why = disposable
        ? 'no customer of the run\'s own whose tokens may be revoked'
        : row.method !== 'GET' && session.seed.customerIsTheUsers === true
          ? 'no customer of the run\'s own to write as (the configured customer\'s token never sends a write)'
          : 'no customer token (read-only mode registers no customer: configure SHOP_CUSTOMER_EMAIL and SHOP_CUSTOMER_PASSWORD)'
      return { caller, store, path, unavailable: why, unavailableReason: 'no-customer-token' }
    }
    // In the ledger before it is sent: a probe that creates a cart may make it although no answer comes.
    const label = `cart made by the ${caller} probe of ${endpointText(row)}${store !== session.seed.storeCode ? ` under store ${store}` : ''}`
    const ticket = call.creates !== undefined ? provisionerOf(session).ledger.request({ kind: call.creates, label }) : undefined
    const outcome = await session.send({
      method: row.method,
      path,
      store,
      ...(token !== undefined ? { token } : {}),
      // A customer token on an admin endpoint is meant to be refused: no reason to doubt the token then.
      ...(caller === 'customer' && row.access === 'admin' ? { refusalExpected: true } : {}),
      ...(call.body !== undefined ? { body: call.body } : {}),
    })
    const created = outcome.answer !== undefined && outcome.answer.status >= 200 && outcome.answer.status < 300 ? toId(outcome.answer.body) : undefined
    ticket?.settle(outcome, created === undefined ? undefined : String(created))
    return { caller, store, path, ...outcome }
  })
}

export type ProbeKind = 'no answer' | 'not sent' | 'no-route' | 'refused' | 'accepted'

/**
 * Why an answer tells nothing about who may call the endpoint or under which store code (undefined when it
 * does): no answer at all, a server error, a rate limit, or a body that is not the JSON the spec's payloads
 * are ("Payloads are JSON"). Such an answer is the route check's failure, never an access or store-code one.
 * 401/403 and the no-route answer are judged by their status, whatever their body.
 */
export function unusable(p: Probe): string | undefined {
  return p.unavailable !== undefined ? undefined : unusableAnswer(p.answer, quoteAnswer(p))
}

export function classify(session: Session, p: Probe): ProbeKind {
  if (p.unavailable !== undefined) return 'not sent'
  if (p.answer === undefined) return 'no answer'
  if (session.looksLikeNoRoute(p.answer, p.path)) return 'no-route'
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
