/**
 * The one sender of what the check kinds plan (probe.ts): each planned call once per session, whichever kind asks
 * for it first, and a row's valid request as its sequence says — the groups in order, a fresh request after a
 * success where the plan says so (and then, for each other caller of that group whose answer the used-up request
 * may explain, one of its own). It knows no check and no rule: what a request is made of (the set-up, above the
 * shop) comes in through the hooks, and every answer goes back read against the target's own no-route and
 * unknown-store answers, so the judges need nothing of the session.
 */
import type { Outcome } from './request.ts'
import { isRefusal } from '../spec/admission.ts'
import { endpointText } from '../spec/endpoint-id.ts'
import { allowedInReadOnly, type Session } from './session.ts'
import {
  callKey,
  probeCallerOf,
  type PlannedCall,
  type Probe,
  type ProbeAnswers,
  type ProbePlan,
  type SequenceAnswers,
  type SequenceCaller,
  type SequencePlan,
  type Unbuilt,
} from './probe.ts'
import { defined } from '../base/defined.ts'

/** A valid request made for a sequence: its values, the callers' tokens, and what a success creates. */
export interface PreparedProbe {
  /** The path with the request's values (before aliases). */
  path: string
  body?: Record<string, unknown>
  query?: string
  /** The token each caller sends (undefined: no Authorization header); a caller absent has none in this run. */
  tokens: ReadonlyMap<SequenceCaller, string | undefined>
  /** Before a send as `caller`: the ledger's record of what a success may create, settled with the outcome. */
  record?(caller: SequenceCaller): Recorded | undefined
}

/**
 * What a call that may create something is in the ledger as: told when it leaves (a cleanup after a stop waits only
 * for what left, lib/setup/ledger.ts), and settled with its outcome.
 */
export interface Recorded {
  sent(): void
  settle(outcome: Outcome): void
}

/** What the sender cannot know itself: how the run's own data is made (set-up) and recorded (the ledger). */
export interface SendHooks {
  /** Makes the sequence's valid request, each time it is asked (a fresh one after a success that used it up). */
  prepare?(): Promise<PreparedProbe | Unbuilt>
  /** Before a call that creates something (`ProbeCall.creates`) leaves: its record, settled with the outcome. */
  record?(planned: PlannedCall, store: string): Recorded | undefined
}

export const NO_CUSTOMER_TOKEN =
  'no customer token (read-only mode registers no customer: configure SHOP_CUSTOMER_EMAIL and SHOP_CUSTOMER_PASSWORD)'

/** Sends a plan: its calls and its sequence at once, then what waits for the sequence. */
export async function sendPlan(session: Session, plan: ProbePlan, hooks: SendHooks = {}): Promise<ProbeAnswers> {
  const [sequence, first] = await Promise.all([
    plan.sequence !== undefined ? sendSequence(session, plan.sequence, hooks) : undefined,
    Promise.all(plan.calls.map((c) => sendCall(session, c, hooks))),
  ])
  const after = await Promise.all((plan.after ?? []).map((c) => sendCall(session, c, hooks)))
  const planned = [...plan.calls, ...(plan.after ?? [])]
  const probes = [...first, ...after]
  return {
    plan,
    calls: new Map(planned.map((c, i) => [callKey(c), defined(probes[i], "a planned call's probe")])),
    ...(sequence !== undefined ? { sequence } : {}),
  }
}

/** A probe's answer read against the target's calibration (its no-route and unknown-store answers). */
export function readProbe(session: Session, p: Probe): Probe {
  if (p.answer === undefined) return p
  return {
    ...p,
    noRoute: session.looksLikeNoRoute(p.answer, p.path),
    unknownStore: session.looksLikeUnknownStore(p.answer, p.path),
  }
}

/** Sends one planned call once per session; every kind asking for the same one shares the answer. */
export function sendCall(session: Session, planned: PlannedCall, hooks: SendHooks = {}): Promise<Probe> {
  return session.memo(`probe ${callKey(planned)}`, async (): Promise<Probe> => {
    const { call, request } = planned
    const { caller } = request
    const store = request.store === 'first' ? session.seed.storeCode : session.seed.secondStoreCode
    const path = session.targetPath(call.path)
    const disposable = call.disposable === true
    const token = session.tokenFor(caller, { disposable, write: call.method !== 'GET' })
    const unsent = notSent(planned, {
      readOnly: session.seed.readOnly,
      token: token !== undefined,
      customerIsTheUsers: session.seed.customerIsTheUsers === true,
    })
    if (unsent !== undefined) return { caller, store, path, ...unsent }
    // Recorded before it is sent: a call that creates a cart may make it although no answer comes.
    const recorded = call.creates !== undefined ? hooks.record?.(planned, store) : undefined
    const outcome = await session.send({
      method: call.method,
      path,
      store,
      ...(token !== undefined ? { token } : {}),
      ...(call.refusalExpected === true ? { refusalExpected: true } : {}),
      ...(call.body !== undefined ? { body: call.body } : {}),
      ...(recorded !== undefined ? { onSent: () => recorded.sent() } : {}),
      probe: callKey(planned),
    })
    recorded?.settle(outcome)
    return readProbe(session, { caller, store, path, ...outcome })
  })
}

/**
 * Why a planned call is not sent, if it is not: read-only mode and a write, or no token for its caller. One decision
 * for the sender and for a recording read back (recorded.ts: a planned call nothing was recorded for).
 */
export function notSent(
  { call, request }: PlannedCall,
  run: { readOnly: boolean; token: boolean; customerIsTheUsers: boolean },
): Pick<Probe, 'unavailable' | 'unavailableReason'> | undefined {
  if (run.readOnly && !allowedInReadOnly(call.method, call.path))
    return { unavailable: `read-only mode sends no ${call.method} requests`, unavailableReason: 'read-only' }
  if (run.token || request.caller === 'none') return undefined
  if (request.caller === 'limited admin')
    return { unavailable: 'no limited admin configured', unavailableReason: 'not-configured' }
  return { unavailable: noCustomerWhy(call, run.customerIsTheUsers), unavailableReason: 'no-customer-token' }
}

/** Why a customer's call has no token: a disposable customer's, a write as the run's own, or none at all. */
function noCustomerWhy(call: PlannedCall['call'], customerIsTheUsers: boolean): string {
  if (call.disposable === true) return "no customer of the run's own whose tokens may be revoked"
  if (call.method !== 'GET' && customerIsTheUsers)
    return "no customer of the run's own to write as (the configured customer's token never sends a write)"
  return NO_CUSTOMER_TOKEN
}

/**
 * Sends a sequence once per session, whichever kind asks first. Without a valid request (none can be made, or
 * making it failed) every caller of the fallback gets its placeholder call, shared with the kinds that plan it.
 */
export function sendSequence(session: Session, plan: SequencePlan, hooks: SendHooks = {}): Promise<SequenceAnswers> {
  return session.memo(`sequence ${endpointText({ method: plan.method, path: plan.template })}`, () =>
    inLane(session, plan.lane, async (): Promise<SequenceAnswers> => {
      const fallback = async (unbuilt: Unbuilt): Promise<SequenceAnswers> => {
        const sent = await Promise.all(plan.fallback.map((c) => sendCall(session, c, hooks)))
        return {
          unbuilt,
          probes: new Map(plan.fallback.map((c, i) => [c.request.caller, defined(sent[i], "a fallback call's probe")])),
          witness: plan.witness,
        }
      }
      if (plan.unbuildable !== undefined) return fallback({ ...plan.unbuildable, exchanges: [] })
      const prepare = hooks.prepare?.bind(hooks)
      if (prepare === undefined)
        throw new Error(
          `nothing makes the valid request of ${endpointText({ method: plan.method, path: plan.template })}`,
        )
      let prepared = await prepare()
      if (!('tokens' in prepared)) return fallback(prepared)
      const tokens = new Map(prepared.tokens)
      const store = session.seed.storeCode
      const notSent = (caller: SequenceCaller, unavailable: string, unavailableReason: Unbuilt['reason']): Probe => ({
        caller: probeCallerOf(caller),
        store,
        path: '',
        unavailable,
        unavailableReason,
      })
      const groups = plan.groups
        .map((g) => g.filter((c) => !plan.optional.includes(c) || tokens.has(c)))
        .filter((g) => g.length > 0)
      const probes = new Map<SequenceCaller, Probe>()
      // A caller the run has no token for is not sent as anyone else (read-only mode registers no customer).
      for (const caller of groups.flat())
        if (caller !== 'none' && caller !== plan.witness && tokens.get(caller) === undefined)
          probes.set(caller, notSent(caller, NO_CUSTOMER_TOKEN, 'no-customer-token'))
      for (const [i, all] of groups.entries()) {
        const group = all.filter((caller) => !probes.has(caller))
        const current = prepared
        const sent = await Promise.all(
          group.map(
            async (caller) => [caller, await sendAs(session, plan, current, caller, tokens.get(caller))] as const,
          ),
        )
        for (const [caller, p] of sent) probes.set(caller, p)
        if (plan.again !== 'fresh' || !sent.some(([, p]) => succeeded(p))) continue
        await askAgainAlone(
          session,
          plan,
          prepare,
          sent.filter(([, p]) => doubtful(p)).map(([caller]) => caller),
          tokens,
          probes,
        )
        if (i === groups.length - 1) continue
        const next = await prepare()
        if (!('tokens' in next)) {
          // The witness cannot be asked: the verdict says why (its cell is not sent).
          for (const caller of groups.slice(i + 1).flat())
            probes.set(caller, notSent(caller, next.message, next.reason))
          break
        }
        prepared = next
        // The witness's token comes with its request (a self endpoint's customer may be a new one).
        tokens.set(plan.witness, next.tokens.get(plan.witness))
      }
      return { probes, witness: plan.witness }
    }),
  )
}

/** Per session, the last work of each lane: the next one starts when it has ended (whatever its outcome). */
const LANES = new WeakMap<Session, Map<string, Promise<unknown>>>()

/** `work` once every earlier work of the lane has ended; at once without a lane. */
function inLane<T>(session: Session, lane: string | undefined, work: () => Promise<T>): Promise<T> {
  if (lane === undefined) return work()
  const lanes = LANES.get(session) ?? new Map<string, Promise<unknown>>()
  LANES.set(session, lanes)
  const turn = (lanes.get(lane) ?? Promise.resolve()).then(work)
  lanes.set(
    lane,
    turn.catch(() => undefined),
  )
  return turn
}

function succeeded(p: Probe): boolean {
  return p.answer !== undefined && p.answer.status >= 200 && p.answer.status < 300
}

/** Neither a success nor a refusal (401/403): an answer the request's data, not the caller, may explain. */
function doubtful(p: Probe): boolean {
  return p.unavailable === undefined && !succeeded(p) && !(p.answer !== undefined && isRefusal(p.answer.status))
}

/**
 * After a success to a request a success may use up (a removal, an assignment, a unique creation), what the other
 * callers sent the same request at once got may be about the used-up request rather than about them: each such
 * caller is asked again with a request of its own, one after another (what a request is prepared from may be reset
 * for each, so two preparations never overlap). Only after a success where `again` is `fresh`: a shop that refuses
 * as it should gets no request more. An answer is kept when no request could be made.
 */
async function askAgainAlone(
  session: Session,
  plan: SequencePlan,
  prepare: () => Promise<PreparedProbe | Unbuilt>,
  callers: readonly SequenceCaller[],
  tokens: ReadonlyMap<SequenceCaller, string | undefined>,
  probes: Map<SequenceCaller, Probe>,
): Promise<void> {
  for (const caller of callers) {
    const own = await prepare()
    if (!('tokens' in own)) return
    probes.set(caller, await sendAs(session, plan, own, caller, tokens.get(caller)))
  }
}

/** Sends the prepared request as one caller (recorded first where a success creates something). */
async function sendAs(
  session: Session,
  plan: SequencePlan,
  prepared: PreparedProbe,
  caller: SequenceCaller,
  token: string | undefined,
): Promise<Probe> {
  const store = session.seed.storeCode
  const path = session.targetPath(prepared.path)
  // A caller the endpoint's class refuses (the limited admin's role may have the resource: it is not one of them): a
  // 401 then says nothing about whether the token expired, and a shop that refuses as it must writes nothing.
  const refusalExpected = caller !== plan.witness && caller !== 'limited admin'
  const probe = `valid request of ${endpointText({ method: plan.method, path: plan.template })} as ${caller}`
  const request = {
    method: plan.method,
    path,
    store,
    probe,
    ...(prepared.body !== undefined ? { body: prepared.body } : {}),
    ...(prepared.query !== undefined ? { query: prepared.query } : {}),
  }
  const recorded = prepared.record?.(caller)
  const onSent = recorded !== undefined ? { onSent: () => recorded.sent() } : {}
  let outcome = await session.send({
    ...request,
    ...(token !== undefined ? { token } : {}),
    ...(refusalExpected ? { refusalExpected } : {}),
    ...onSent,
  })
  // The witness's customer of the run's own may have seen its token expire (tokens live an hour, or less): renewed
  // once.
  if (caller === plan.witness && outcome.answer?.status === 401 && token !== undefined) {
    const current = await session.liveOwnToken(token)
    if (current !== token) outcome = await session.send({ ...request, token: current, ...onSent })
  }
  recorded?.settle(outcome)
  return readProbe(session, { caller: probeCallerOf(caller), store, path, ...outcome })
}
