/**
 * Test support (not a test itself): a plan's answers as the sender hands them to a judge, made from replies a test
 * writes or a real instance recorded — so a judge is proven on answers in milliseconds, no target running.
 */
import type { Answer } from '../shop/request.ts'
import { callKey, type PlannedCall, type Probe, type ProbeAnswers, type ProbePlan, type SequenceCaller, type Unbuilt } from '../shop/probe.ts'
import { probeCallerOf } from '../shop/probe.ts'

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
}

export const STORES = { first: 'default', second: 'all' } as const

export function reply(status: number, body?: unknown, more: Omit<Reply, 'status' | 'body'> = {}): Reply {
  return { status, ...(body !== undefined ? { body } : {}), ...more }
}

export const NO_ROUTE: Reply = reply(404, { message: 'Request does not match any route.' }, { noRoute: true })
export const UNAUTHORIZED: Reply = reply(401, { message: "The consumer isn't authorized to access %resources.", parameters: { resources: 'Shop_Backend::admin' } })
export const OK: Reply = reply(200, [])

/** A reply as the client's answer and exchange. */
export function probeOf(caller: SequenceCaller, store: string, method: string, path: string, r: Reply | undefined): Probe {
  const exchange = { request: { method, url: `http://shop.test/rest/${store}${path}`, headers: {} }, durationMs: 1 }
  if (r === undefined) return { caller: probeCallerOf(caller), store, path, failure: { kind: 'timeout', message: 'timeout after 10000 ms' }, exchange: { ...exchange, error: 'timeout after 10000 ms' } }
  const text = r.text ?? (r.body === undefined ? '' : JSON.stringify(r.body))
  const json = r.json ?? (r.body !== undefined && r.text === undefined)
  const answer: Answer = { status: r.status, headers: r.headers ?? { 'content-type': json ? 'application/json' : 'text/html' }, body: json ? r.body : text, json, text }
  return { caller: probeCallerOf(caller), store, path, answer, exchange: { ...exchange, response: { status: r.status, headers: answer.headers, body: answer.body } }, noRoute: r.noRoute === true, unknownStore: r.unknownStore === true }
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
  const send = (c: PlannedCall) => calls.set(callKey(c), probeOf(c.request.caller, STORES[c.request.store], c.call.method, c.call.path, replyTo(c)))
  for (const c of [...plan.calls, ...(plan.after ?? [])]) send(c)
  const s = plan.sequence
  if (s === undefined) return { plan, calls }
  const unbuilt = s.unbuildable !== undefined ? { ...s.unbuildable, exchanges: [] } : sequence.unbuilt
  if (unbuilt !== undefined) {
    for (const c of s.fallback) send(c)
    return { plan, calls, sequence: { unbuilt, witness: s.witness, probes: new Map(s.fallback.map((c) => [c.request.caller, calls.get(callKey(c))!])) } }
  }
  const probes = new Map<SequenceCaller, Probe>()
  for (const caller of s.groups.flat()) probes.set(caller, probeOf(caller, STORES.first, s.method, s.template, (sequence.reply ?? (() => OK))(caller)))
  return { plan, calls, sequence: { witness: s.witness, probes } }
}
