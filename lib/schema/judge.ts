/**
 * The judges of a shop's extension operations (extensions.ts) that need no knowledge of their data: route (the
 * operation is served at the method and path its schema declares, with placeholder values), store code, and
 * access against the class the schema declares. Pure: `probesFor` says which callers may be sent which request;
 * whoever sends them (the run) hands back the answers, each already read against the target's own no-route and
 * unknown-store answers, and whether the target routes before it checks access (`TargetReading`); the judges
 * turn them into verdicts with the answers as evidence.
 *
 * Safety first, since a shop's custom operations can do anything: an operation that writes (POST, PUT, DELETE)
 * is sent only to callers its declared class must refuse — its route is judged from their answers, as a refusal
 * is not the no-route answer — and to a caller it admits only when the user asks (`probeWrites`); read-only mode
 * sends no extension write at all.
 */
import { ACCESS_CALLERS, ADMISSION, admittedCaller, isRefusal, judgeAccess as judgeOne, seenOfAnswer, unusableAnswer } from '../spec/admission.ts'
import type { AccessCaller, AccessCell, AnswerLike } from '../spec/admission.ts'
import { fillTemplate, placeholderFor } from '../spec/paths.ts'
import { ACCESS_RULES, ROUTE_RULES, STORE_CODE_RULES } from '../spec/rules.ts'
import type { Rule } from '../spec/rules.ts'
import type { HttpMethod } from '../spec/types.ts'
import type { ExtensionOperation } from './extensions.ts'
import type { UnansweredReason } from '../results/verdict.ts'
import { endpointText } from '../spec/endpoint-id.ts'

export type ExtensionCheck = 'route' | 'store-code' | 'access'

/** One request a judge may read: who sends it, under which of the run's two store codes, to which concrete path. */
export interface ExtensionProbe {
  caller: AccessCaller
  store: 'configured' | 'second'
  method: HttpMethod
  /** The declared path with placeholder values (lib/spec/paths.ts). */
  path: string
  /** POST and PUT send `{}`. */
  body?: Record<string, never>
}

export interface ProbePlan {
  probes: ExtensionProbe[]
  /** Callers the operation is not sent to although its class states what they get, and why. */
  withheld: { caller: AccessCaller; why: string }[]
}

export interface ProbeOptions {
  readOnly: boolean
  /** `--extensions-probe-writes`: send writes to the callers their class admits too. */
  probeWrites: boolean
}

/** A probe as it went: the answer (absent when none came), how messages quote it, and how it reads against the target's calibration. */
export interface ProbeResult {
  probe: ExtensionProbe
  answer?: AnswerLike
  /** `404 "…"`, `no answer (timeout after 10000 ms)`: the outcome as messages quote it. */
  quoted: string
  /** The answer is the target's no-route answer. */
  noRoute: boolean
  /** The answer is the target's unknown-store answer. */
  unknownStore: boolean
  /** Without an answer: why (a timeout, a target gone, a connection failed), as the verdict's not-judged reason. */
  unanswered?: UnansweredReason
}

/**
 * What the driver learned about the target that the judges need. `refusalShowsRoute`: a request without a token
 * to a path that cannot exist gets the no-route answer, not a refusal — the target routes before it checks access
 * (as the platform does: "The route is matched first (404), then access (401)"), so a refusal shows the route is
 * there. On a target that refuses first, a write sent only to callers its class refuses cannot show its route.
 */
export interface TargetReading {
  refusalShowsRoute: boolean
}

export interface ExtensionVerdict {
  check: ExtensionCheck
  status: 'passed' | 'failed' | 'not judged'
  message: string
  /** The spec's rules applied; a route is also judged on what the shop's schema declares (`basis`). */
  rules: readonly Rule[]
  basis: string
  /** The probes the verdict read. */
  evidence: ProbeResult[]
}

const WRITE_WITHHELD = 'a write is sent only to callers its declared class must refuse (--extensions-probe-writes sends it to the others too)'
const READ_ONLY = 'read-only mode sends no extension write'
const UNKNOWN_CLASS_WRITE = 'a write, and no caller is known to be refused: the declared access class is unknown'

const ROUTE_EXTENSION_RULE: Rule = {
  text: 'an operation the shop\'s schema declares is served at its method and path: its answer is not the no-route answer (a refusal is not one), and is JSON; a server error to the probe\'s made-up values judges nothing',
  specWords: [...ROUTE_RULES.noServerError.specWords, ...ROUTE_RULES.json.specWords],
}

/** What an extension probe sends: no spec says what the operation takes, so nothing it sends is known to be valid. */
const PROBE_VALUES = 'placeholders in the path, an empty body for a write'

function label(caller: string): string {
  return caller === 'none' ? 'no token' : caller === 'malformed' ? 'malformed token' : `${caller} token`
}

/** Which callers an extension operation may be sent to, and which store codes, under the run's options. */
export function probesFor(op: ExtensionOperation, options: ProbeOptions): ProbePlan {
  const path = fillTemplate(op.path, placeholderFor)
  const request = (caller: AccessCaller, store: ExtensionProbe['store']): ExtensionProbe => ({
    caller,
    store,
    method: op.method,
    path,
    ...(op.method === 'POST' || op.method === 'PUT' ? { body: {} } : {}),
  })
  if (op.writes && options.readOnly) return { probes: [], withheld: ACCESS_CALLERS.map((caller) => ({ caller, why: READ_ONLY })) }
  if (op.declaredAccess === undefined) {
    // Who may call it is unknown: a read goes to the admin, whom every class but anon admits (and anon refuses no one).
    if (op.writes && !options.probeWrites) return { probes: [], withheld: [{ caller: 'admin', why: UNKNOWN_CLASS_WRITE }] }
    return { probes: [request('admin', 'configured'), request('admin', 'second')], withheld: [] }
  }
  const admission = ADMISSION[op.declaredAccess]
  const sent: AccessCaller[] = []
  const withheld: ProbePlan['withheld'] = []
  for (const caller of ACCESS_CALLERS) {
    if (admission[caller] === 'not stated') continue
    if (op.writes && admission[caller] === 'accept' && !options.probeWrites) withheld.push({ caller, why: WRITE_WITHHELD })
    else sent.push(caller)
  }
  // The store code is tried by the caller the class admits, else by one it refuses: a refusal under the second
  // store code is no unknown-store answer either.
  const admitted = admittedCaller(op.declaredAccess)
  const storeCaller = sent.includes(admitted) ? admitted : sent[0]
  const probes = sent.map((caller) => request(caller, 'configured'))
  if (storeCaller !== undefined) probes.push(request(storeCaller, 'second'))
  return { probes, withheld }
}

function resultOf(results: readonly ProbeResult[], caller: AccessCaller, store: ExtensionProbe['store']): ProbeResult | undefined {
  return results.find((r) => r.probe.caller === caller && r.probe.store === store)
}

function notSent(plan: ProbePlan): string {
  const whys = [...new Set(plan.withheld.map((w) => w.why))]
  return `not sent: ${whys.join('; ') || 'no caller to send it as'}`
}

/** The caller whose answer shows the operation is there: the one its class admits, else one it refuses. */
function routeWitness(op: ExtensionOperation, results: readonly ProbeResult[]): ProbeResult | undefined {
  const admitted = op.declaredAccess === undefined ? 'admin' : admittedCaller(op.declaredAccess)
  return resultOf(results, admitted, 'configured') ?? results.find((r) => r.probe.store === 'configured')
}

export function judgeRoute(op: ExtensionOperation, plan: ProbePlan, results: readonly ProbeResult[], target: TargetReading): ExtensionVerdict {
  const basis = `the shop's schema declares ${endpointText(op)}`
  const verdict = (status: ExtensionVerdict['status'], message: string, evidence: ProbeResult[]): ExtensionVerdict => ({ check: 'route', status, message, rules: [ROUTE_EXTENSION_RULE], basis, evidence })
  const r = routeWitness(op, results)
  if (r === undefined) return verdict('not judged', notSent(plan), [])
  const at = `${endpointText({ method: op.method, path: r.probe.path })} (${label(r.probe.caller)})`
  // A slow shop is not a failing shop: no answer judges nothing.
  if (r.answer === undefined) return verdict('not judged', `not judged: no answer from ${at}: ${r.quoted}`, [r])
  if (r.noRoute) return verdict('failed', `${at} answered like the target's no-route answer (${r.quoted}): the operation its schema declares is not served`, [r])
  // The probe's values are made up (placeholders in the path, an empty body): a shop's own operation may well fail on
  // them, and a server error shows neither that the operation is served nor that it is not. The real 2.4.7-p7 shop
  // answered 500 to two of its own operations so (fixtures/observations/real-runs/2.4.7-p7): not a failure of its.
  if (r.answer.status >= 500) return verdict('not judged', `not judged: ${at} answered a server error (${r.quoted}) to values the suite made up (${PROBE_VALUES}): a shop's own operation may fail on them, so the answer shows neither that it is served nor that it is not`, [r])
  const refused = isRefusal(r.answer.status)
  if (refused && !target.refusalShowsRoute) return verdict('not judged', `not judged: ${at} was refused (${r.quoted}), and this target refuses a path that cannot exist too, so a refusal does not show the operation is served`, [r])
  if (!r.answer.json && r.answer.status !== 204 && !refused) return verdict('failed', `${at} answered ${r.answer.status} with ${r.answer.text.trim() === '' ? 'an empty body' : 'a body that is not JSON'}, where the spec says payloads are JSON`, [r])
  return verdict('passed', `served: ${at} answered ${r.quoted}${refused ? ', a refusal, which is not the no-route answer' : ', not the no-route answer'}`, [r])
}

export function judgeStoreCode(op: ExtensionOperation, plan: ProbePlan, results: readonly ProbeResult[], target: TargetReading): ExtensionVerdict {
  const second = results.find((r) => r.probe.store === 'second')
  const first = second === undefined ? undefined : resultOf(results, second.probe.caller, 'configured')
  const verdict = (status: ExtensionVerdict['status'], message: string): ExtensionVerdict => ({
    check: 'store-code',
    status,
    message,
    rules: [STORE_CODE_RULES.served],
    basis: `the shop's schema declares ${endpointText(op)}`,
    evidence: [first, second].filter((r): r is ProbeResult => r !== undefined),
  })
  if (second === undefined || first === undefined) return verdict('not judged', notSent(plan))
  // Under the configured store code it must be there at all (the route judge's part), and say something.
  if (first.answer === undefined || first.noRoute) return verdict('not judged', `not judged: under the configured store code it gave ${first.quoted} (see the route verdict)`)
  const broken = unusableAnswer(first.answer, first.quoted)
  if (broken !== undefined) return verdict('not judged', `not judged: under the configured store code it gave ${broken} (see the route verdict)`)
  if (second.answer === undefined) return verdict('not judged', `not judged: no answer under the second store code: ${second.quoted}`)
  if (second.noRoute) return verdict('failed', `under the second store code it answered like the target's no-route answer (${second.quoted}), under the configured one ${first.quoted}`)
  const brokenSecond = unusableAnswer(second.answer, second.quoted)
  if (brokenSecond !== undefined) return verdict('not judged', `not judged: under the second store code it gave ${brokenSecond}, under the configured one ${first.quoted}`)
  if (isRefusal(second.answer.status) && !target.refusalShowsRoute) return verdict('not judged', `not judged: refused under the second store code (${second.quoted}), and this target refuses a path that cannot exist too, so a refusal shows no store code is served`)
  if (second.unknownStore && !first.unknownStore) return verdict('failed', `under the second store code it answered as for an unknown store code (${second.quoted}), under the configured one ${first.quoted}`)
  return verdict('passed', `served under the second store code (${second.quoted}) as under the configured one (${first.quoted})`)
}

export function judgeAccess(op: ExtensionOperation, plan: ProbePlan, results: readonly ProbeResult[]): ExtensionVerdict {
  const cls = op.declaredAccess
  const basis = cls === undefined ? `the shop's schema declares ${endpointText(op)}` : `the shop's schema declares ${endpointText(op)} ${cls}`
  const configured = results.filter((r) => r.probe.store === 'configured')
  const verdict = (status: ExtensionVerdict['status'], message: string): ExtensionVerdict => ({ check: 'access', status, message, rules: cls === undefined ? [] : [ACCESS_RULES[cls]], basis, evidence: configured })
  if (cls === undefined) return verdict('not judged', `not judged: ${op.accessUnknown ?? 'the declared access class is unknown'}`)
  if (configured.length === 0) return verdict('not judged', notSent(plan))
  // The spec's one access judgement (lib/spec/admission.ts), over the answers of the callers sent: one withheld by
  // the safety rule is no cell (a write withheld from the admitted caller leaves the refusals to speak for themselves).
  const cells: AccessCell[] = ACCESS_CALLERS.flatMap((caller) => {
    const result = resultOf(results, caller, 'configured')
    return result === undefined ? [] : [{ caller, expected: ADMISSION[cls][caller], seen: seenOfAnswer(result.answer, result.noRoute), answer: result.quoted }]
  })
  const judged = judgeOne(cells, admittedCaller(cls), label)
  if (judged.status === 'not judged') return verdict('not judged', judged.message.replace('see the route check', 'see the route verdict'))
  if (judged.status === 'failed') return verdict('failed', `declared ${cls}: ${judged.message.replaceAll('where the spec says', 'where the class says')}`)
  const held = plan.withheld.filter((w) => !cells.some((c) => c.caller === w.caller))
  const whys = [...new Set(held.map((w) => w.why))]
  const scope = whys.map((why) => `; not sent to ${held.filter((w) => w.why === why).map((w) => label(w.caller)).join(', ')}: ${why}`).join('')
  return verdict('passed', `declared ${cls}: ${judged.message}${scope}`)
}

/** The three verdicts of an extension operation, from the answers to its plan's probes. */
export function judgeExtension(op: ExtensionOperation, plan: ProbePlan, results: readonly ProbeResult[], target: TargetReading): ExtensionVerdict[] {
  return [judgeRoute(op, plan, results, target), judgeStoreCode(op, plan, results, target), judgeAccess(op, plan, results)]
}
