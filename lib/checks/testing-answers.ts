/**
 * Test support (not a test itself): a plan's answers as the sender hands them to a judge, made from replies a test
 * writes or a real instance recorded — so a judge is proven on answers in milliseconds, no target running.
 */
import type { Answer } from '../shop/request.ts'
import type { NotJudgedReason } from '../results/verdict.ts'
import {
  callKey,
  type PlannedCall,
  type Probe,
  type ProbeAnswers,
  type ProbePlan,
  type SequenceCaller,
  type Unbuilt,
} from '../shop/probe.ts'
import { probeCallerOf } from '../shop/probe.ts'
import { DEFAULT_MATRIX_FILE, readAccessMatrix, type ObservedCell } from '../../fixtures/observed-target/matrix.ts'
import { findRow } from '../spec/catalog/index.ts'
import type { EndpointRow } from '../spec/types.ts'
import type { ProbeSettings } from './probe.ts'

/** What came back: an answer (its body JSON unless `text` says otherwise), or none (`undefined`: a timeout). */
export interface Reply {
  status: number
  body?: unknown
  /** The raw body; JSON of `body` unless given. */
  text?: string
  json?: boolean
  headers?: Record<string, string>
  /** The target's no-route answer, its unknown-store answer (the calibration's reading). */
  noRoute?: boolean
  unknownStore?: boolean
  /** Not sent at all, and why (the sender's words): no answer, no status. */
  unavailable?: { why: string; reason: NotJudgedReason }
}

/** A caller the run has no token for: not sent. */
export const NO_CUSTOMER_TOKEN: Reply = {
  status: 0,
  unavailable: { why: 'no customer token', reason: 'no-customer-token' },
}

const STORES = { first: 'default', second: 'all' } as const

export function reply(status: number, body?: unknown, more: Omit<Reply, 'status' | 'body'> = {}): Reply {
  return { status, ...(body !== undefined ? { body } : {}), ...more }
}

export const NO_ROUTE: Reply = reply(404, { message: 'Request does not match any route.' }, { noRoute: true })
export const UNAUTHORIZED: Reply = reply(401, {
  message: "The consumer isn't authorized to access %resources.",
  parameters: { resources: 'Shop_Backend::admin' },
})
export const OK: Reply = reply(200, [])

/** A reply as the client's answer and exchange. */
export function probeOf(
  caller: SequenceCaller,
  store: string,
  method: string,
  path: string,
  r: Reply | undefined,
): Probe {
  const exchange = { request: { method, url: `http://shop.test/rest/${store}${path}`, headers: {} }, durationMs: 1 }
  if (r?.unavailable !== undefined)
    return {
      caller: probeCallerOf(caller),
      store,
      path,
      unavailable: r.unavailable.why,
      unavailableReason: r.unavailable.reason,
    }
  if (r === undefined)
    return {
      caller: probeCallerOf(caller),
      store,
      path,
      failure: { kind: 'timeout', message: 'timeout after 10000 ms' },
      exchange: { ...exchange, error: 'timeout after 10000 ms' },
    }
  const text = r.text ?? (r.body === undefined ? '' : JSON.stringify(r.body))
  const json = r.json ?? (r.body !== undefined && r.text === undefined)
  const answer: Answer = {
    status: r.status,
    headers: r.headers ?? { 'content-type': json ? 'application/json' : 'text/html' },
    body: json ? r.body : text,
    json,
    text,
  }
  return {
    caller: probeCallerOf(caller),
    store,
    path,
    answer,
    exchange: { ...exchange, response: { status: r.status, headers: answer.headers, body: answer.body } },
    noRoute: r.noRoute === true,
    unknownStore: r.unknownStore === true,
  }
}

/**
 * The answers to a plan: each call's reply by `replyTo`, each caller of its sequence's by `sequenceReply` (the valid
 * request's path is its template then), or the fallback's replies where `unbuilt` says no valid request was made.
 */
export function answersOf(
  plan: ProbePlan,
  replyTo: (planned: PlannedCall) => Reply | undefined,
  sequence: { reply?: (caller: SequenceCaller) => Reply | undefined; unbuilt?: Unbuilt } = {},
): ProbeAnswers {
  const calls = new Map<string, Probe>()
  const send = (c: PlannedCall) =>
    calls.set(callKey(c), probeOf(c.request.caller, STORES[c.request.store], c.call.method, c.call.path, replyTo(c)))
  for (const c of [...plan.calls, ...(plan.after ?? [])]) send(c)
  const s = plan.sequence
  if (s === undefined) return { plan, calls }
  const unbuilt = s.unbuildable !== undefined ? { ...s.unbuildable, exchanges: [] } : sequence.unbuilt
  if (unbuilt !== undefined) {
    for (const c of s.fallback) send(c)
    return {
      plan,
      calls,
      sequence: {
        unbuilt,
        witness: s.witness,
        probes: new Map(s.fallback.map((c) => [c.request.caller, calls.get(callKey(c))!])),
      },
    }
  }
  const probes = new Map<SequenceCaller, Probe>()
  for (const caller of s.groups.flat())
    probes.set(caller, probeOf(caller, STORES.first, s.method, s.template, (sequence.reply ?? (() => OK))(caller)))
  return { plan, calls, sequence: { witness: s.witness, probes } }
}

/**
 * A cell of the recorded access matrix as a reply: the no-route answer, a refusal, or another answer of that status.
 */
function observedReply(cell: ObservedCell): Reply {
  if (cell.kind === 'noroute') return { ...NO_ROUTE, status: cell.status }
  if (cell.kind === 'unauth') return { ...UNAUTHORIZED, status: cell.status }
  return reply(cell.status, cell.status < 400 ? {} : { message: 'No such entity with id = 999999' })
}

/**
 * The answers a real 2.4.7 instance gave to a row's placeholder calls (fixtures/observations/access-matrix-2.4.7.tsv),
 * for a kind's plan: each caller's recorded answer, under either store code (the release serves "all" as "default");
 * a restricted row's sequence as its fallback's placeholder calls, which is what was recorded.
 */
export function observedAnswers(
  kind: { probes(row: EndpointRow, settings: ProbeSettings): ProbePlan },
  settings: ProbeSettings = FULL,
): { row: EndpointRow; answers: ProbeAnswers }[] {
  return readAccessMatrix(DEFAULT_MATRIX_FILE).map((observed) => {
    const row = findRow(observed.method, observed.specPath)!
    const replyOf = (caller: SequenceCaller) =>
      caller === 'limited admin' || caller === 'other customer' ? undefined : observedReply(observed[caller])
    return {
      row,
      answers: answersOf(kind.probes(row, settings), (c) => replyOf(c.request.caller), {
        unbuilt: { message: 'the recorded placeholder calls', reason: 'no-valid-request', exchanges: [] },
      }),
    }
  })
}

/** A full run's settings, with a customer and without a limited admin. */
export const FULL: ProbeSettings = { readOnly: false, customer: { reads: true, writes: true } }
