/**
 * A run's recorded exchanges read back as the answers the sender (sender.ts) handed the judges: so the same pure
 * judges re-judge a report with no target running — the project's tests over real shops' runs now, a report judged
 * again offline later. Pure: a report's exchanges and calibration in, a plan's `ProbeAnswers` out.
 */
import { CUT_SHORT, type CallerClass, type Exchange } from '../results/exchange.ts'
import { matchTemplate } from '../spec/paths.ts'
import { authorizationOf, recordedCaller, restPathOf } from './exchange-identity.ts'
import { describeFingerprint, fingerprint } from './fingerprint.ts'
import type { Answer } from './request.ts'
import { NO_CUSTOMER_TOKEN, notSent } from './sender.ts'
import {
  callKey,
  probeCallerOf,
  type PlannedCall,
  type Probe,
  type ProbeAnswers,
  type ProbeCaller,
  type ProbePlan,
  type SequenceCaller,
  type SequencePlan,
  type Unbuilt,
} from './probe.ts'
import { defined } from '../base/defined.ts'

/** One recorded exchange as a probe: whom it was sent as, under which store code, at which method and path. */
interface RecordedProbe {
  caller: ProbeCaller
  store: string
  method: string
  path: string
  probe: Probe
}

/**
 * Which answers are the target's no-route and unknown-store answers: the run's calibration, as its report records it.
 */
export interface AnswerReading {
  noRoute(a: Answer, path: string): boolean
  unknownStore(a: Answer, path: string): boolean
}

/** The reading of a report's `calibration` (its fingerprints, as `describeFingerprint` wrote them). */
export function readingOf(calibration: { noRoute: readonly string[]; unknownStore: readonly string[] }): AnswerReading {
  const matches = (set: readonly string[]) => (a: Answer, path: string) =>
    set.includes(describeFingerprint(fingerprint(a, path)))
  return { noRoute: matches(calibration.noRoute), unknownStore: matches(calibration.unknownStore) }
}

/**
 * A recorded exchange as the sender would have handed it on, read against the target's calibration. `recorded`: the
 * caller's class as the run's evidence tagged it (a HAR's `_caller`); else read from the redacted Authorization header.
 */
export function recordedProbe(e: Exchange, reading: AnswerReading, recorded?: CallerClass): RecordedProbe {
  // Another customer of the run's own is a customer token too: the sequence's order tells them apart.
  const caller = probeCallerOf(recorded ?? recordedCaller(authorizationOf(e.request.headers)))
  const { store, path } = restPathOf(e.request.url) ?? { store: '', path: new URL(e.request.url).pathname }
  const base = { caller, store, path, exchange: e }
  if (e.response === undefined) {
    const kind = /timeout|deadline/i.test(e.error ?? '') ? 'timeout' : 'connection'
    return {
      caller,
      store,
      method: e.request.method,
      path,
      probe: { ...base, failure: { kind, message: e.error ?? 'no answer' } },
    }
  }
  const answer = answerOf(e.response)
  return {
    caller,
    store,
    method: e.request.method,
    path,
    probe: {
      ...base,
      answer,
      noRoute: reading.noRoute(answer, path),
      unknownStore: reading.unknownStore(answer, path),
    },
  }
}

/**
 * The answer a recorded response was. A body that parsed as JSON is recorded parsed, a JSON string too; one that did
 * not, as its text. So a string is read as a JSON string under a JSON content type (the platform's shipment label `""`,
 * a token's recorded redacted), but for the start of an object or a list that is no JSON (a body cut off: not JSON),
 * and the text of a body the client recorded only the start of (`… [N more characters not recorded]`), which is all
 * there is of it.
 */
function answerOf(response: NonNullable<Exchange['response']>): Answer {
  const { status, headers, body } = response
  if (typeof body !== 'string') return { status, headers, body, json: true, text: JSON.stringify(body) }
  const cut = CUT_SHORT.exec(body)
  if (cut !== null)
    return { status, headers, body, json: /json/.test(headers['content-type'] ?? ''), text: body.slice(0, cut.index) }
  // A token's answer is a JSON string, recorded redacted (`[redacted customer token]`): a string still, never a cut
  // list.
  const jsonString =
    /json/.test(headers['content-type'] ?? '') &&
    (REDACTED_VALUE.test(body) || !(/^\s*[[{]/.test(body) && !parses(body)))
  return { status, headers, body, json: jsonString, text: jsonString ? JSON.stringify(body) : body }
}

/** A value the redactor replaced whole (lib/shop/secrets.ts). */
const REDACTED_VALUE = /^\[redacted [^\]]*\]$/

function parses(text: string): boolean {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}

/**
 * The answers to a plan from recorded probes: each planned call found by its caller, store, method and path; the
 * sequence's callers from what was sent at its template. Calls nothing was recorded for are absent, as a judge that
 * does not read them never asks.
 *
 * A sequence is its fallback's placeholder calls where no valid request was made: `unbuilt` says so (a report's
 * access result says "probed with placeholder values"), the plan knows it when none can be built, and otherwise it
 * is read from the exchanges — the admitted caller's recorded call being its placeholder call, at a path with values.
 * Else each caller of the plan's groups takes, in order, the next call sent at the template with its token, but the
 * admitted caller, sent last, takes the last: so another customer (a customer token too, sent first) is told from the
 * request's owner, and a result that recorded only the admitted caller's call (the route check's) gives it to that one.
 */
export function answersFromRecorded(
  plan: ProbePlan,
  recorded: readonly RecordedProbe[],
  stores: { first: string; second: string },
  unbuilt?: Omit<Unbuilt, 'exchanges'>,
  run?: RecordedSettings,
): ProbeAnswers {
  const find = (c: PlannedCall) =>
    recorded.find(
      (r) =>
        r.caller === c.request.caller &&
        r.store === stores[c.request.store] &&
        r.method === c.call.method &&
        r.path === c.call.path,
    )?.probe
  const calls = new Map<string, Probe>()
  for (const c of [...plan.calls, ...(plan.after ?? []), ...(plan.sequence?.fallback ?? [])]) {
    const p = find(c) ?? (run !== undefined ? unrecorded(c, run, stores) : undefined)
    if (p !== undefined) calls.set(callKey(c), p)
  }
  const s = plan.sequence
  if (s === undefined) return { plan, calls }
  // A write's valid request is never made in read-only mode: its callers' placeholder calls are not sent either.
  const readOnly =
    run?.readOnly === true &&
    notSent(
      s.fallback[0] ?? { request: { caller: 'admin', store: 'first' }, call: { method: s.method, path: s.template } },
      { readOnly: true, token: true, customerIsTheUsers: false },
    ) !== undefined
  // Nor is a request made for a caller the run had no token for (read-only mode registers no customer).
  const tokenless = run !== undefined && !hasToken(probeCallerOf(s.witness), { method: s.method }, run)
  const placeholders =
    s.unbuildable ??
    unbuilt ??
    (readOnly
      ? { message: 'read-only mode makes no valid request of a write', reason: 'read-only' as const }
      : undefined) ??
    (tokenless ? { message: NO_CUSTOMER_TOKEN, reason: 'no-customer-token' as const } : undefined) ??
    (sentAsFallback(s, recorded, stores.first)
      ? { message: 'the recorded run sent placeholder calls', reason: 'no-valid-request' as const }
      : undefined)
  if (placeholders !== undefined) {
    const probes = new Map<SequenceCaller, Probe>()
    for (const c of s.fallback) {
      const probe = calls.get(callKey(c))
      if (probe !== undefined) probes.set(c.request.caller, probe)
    }
    return { plan, calls, sequence: { witness: s.witness, probes, unbuilt: { ...placeholders, exchanges: [] } } }
  }
  const probes = sequenceProbes(s, recorded, stores.first)
  if (run !== undefined) {
    for (const caller of s.groups.flat()) {
      if (probes.has(caller) || caller === 'none' || hasToken(probeCallerOf(caller), { method: s.method }, run))
        continue
      probes.set(caller, {
        caller: probeCallerOf(caller),
        store: stores.first,
        path: '',
        unavailable: NO_CUSTOMER_TOKEN,
        unavailableReason: 'no-customer-token',
      })
    }
  }
  return { plan, calls, sequence: { witness: s.witness, probes } }
}

/**
 * What of a run's settings tells why a planned call was not sent (its probe settings, as the run's evidence records
 * them).
 */
interface RecordedSettings {
  readOnly: boolean
  limitedAdmin?: unknown
  customer: { reads: boolean; writes: boolean }
}

/**
 * A planned call nothing was recorded for: not sent, and why — as the sender decides it (sender.ts `notSent`) from
 * what the run had; else the recording lacks it (`not-recorded`), which no judge reads as an answer.
 */
function unrecorded(c: PlannedCall, run: RecordedSettings, stores: { first: string; second: string }): Probe {
  const { caller } = c.request
  const why = notSent(c, {
    readOnly: run.readOnly,
    token: hasToken(caller, c.call, run),
    customerIsTheUsers: false,
  }) ?? { unavailable: 'not in the recording', unavailableReason: 'not-recorded' as const }
  return { caller, store: stores[c.request.store], path: c.call.path, ...why }
}

/** Whether the run had a token for the caller of a call so made (a disposable customer only where it could write). */
function hasToken(caller: ProbeCaller, call: { method: string; disposable?: boolean }, run: RecordedSettings): boolean {
  if (caller === 'limited admin') return run.limitedAdmin !== undefined
  if (caller !== 'customer') return true
  return call.method === 'GET' && call.disposable !== true ? run.customer.reads : run.customer.writes
}

/** The calls sent at the sequence's template under the configured store code, in the order recorded. */
function atTemplate(s: SequencePlan, recorded: readonly RecordedProbe[], store: string): RecordedProbe[] {
  return recorded.filter(
    (r) => r.method === s.method && r.store === store && matchTemplate(s.template, r.path) !== undefined,
  )
}

/**
 * The admitted caller's recorded call is its fallback's placeholder call, at a path with values (one without any is
 * ambiguous: read as the valid request).
 */
function sentAsFallback(s: SequencePlan, recorded: readonly RecordedProbe[], store: string): boolean {
  const witness = s.fallback.find((c) => c.request.caller === probeCallerOf(s.witness))
  if (witness === undefined || witness.call.path === s.template) return false
  const sent = atTemplate(s, recorded, store).filter((r) => r.caller === witness.request.caller)
  return sent.length > 0 && sent.every((r) => r.path === witness.call.path)
}

function sequenceProbes(
  s: SequencePlan,
  recorded: readonly RecordedProbe[],
  store: string,
): Map<SequenceCaller, Probe> {
  const left = atTemplate(s, recorded, store)
  const take = (caller: SequenceCaller, from: 'first' | 'last'): Probe | undefined => {
    const fits = (r: RecordedProbe) => r.caller === probeCallerOf(caller)
    const i = from === 'first' ? left.findIndex(fits) : left.findLastIndex(fits)
    return i < 0 ? undefined : defined(left.splice(i, 1)[0], 'the recorded probe just found').probe
  }
  const witness = take(s.witness, 'last')
  const probes = new Map<SequenceCaller, Probe>()
  for (const caller of s.groups.flat()) {
    const p = caller === s.witness ? witness : take(caller, 'first')
    if (p !== undefined) probes.set(caller, p)
  }
  return probes
}
