/**
 * A shop's extension operations (declared by its published schema, not named by the spec) as rows of the plan, and
 * what is sent to them: the same placeholder calls as a spec row's (lib/spec/paths.ts values, `{}` for a POST or
 * PUT), to the callers `extensionPlan` allows, and once per session a request that shows whether the target routes
 * before it checks access. The route, store-code and access judges read the answers as they read a spec row's.
 *
 * Safety first, since a shop's custom operations can do anything: an operation that writes (POST, PUT, DELETE)
 * is sent only to callers its declared class must refuse — its route is judged from their answers, as a refusal
 * is not the no-route answer — and to a caller it admits only when the user asks (`probeWrites`); read-only mode
 * sends no extension write at all.
 */
import { defined } from '../base/defined.ts'
import { EXTENSIONS_MODULE } from '../results/schema-block.ts'
import type { ExtensionOperation } from '../schema/extensions.ts'
import { ACCESS_CALLERS, ADMISSION, admittedCaller, isRefusal } from '../spec/admission.ts'
import type { EndpointRow } from '../spec/types.ts'
import type { Caller, PlannedCall, Probe, ProbeAnswers, ProbePlan, ProbeRequest, ProbeStore } from '../shop/probe.ts'
import { answerTo, callKey } from '../shop/probe.ts'
import type { NotJudgedReason } from '../results/verdict.ts'
import { concretePath, type ProbeSettings } from './probe.ts'
import { endpointText } from '../spec/endpoint-id.ts'

/**
 * An extension operation as a plan row. `access` is the declared class where the schema's views tell it
 * (`admin` as a stand-in where they cannot: no spec kind ever reads an extension row); the judges read `operation`.
 */
interface ExtensionRow extends EndpointRow {
  origin: 'extension'
  operation: ExtensionOperation
}

export function extensionRow(operation: ExtensionOperation): ExtensionRow {
  return {
    method: operation.method,
    path: operation.path,
    module: EXTENSIONS_MODULE,
    access: operation.declaredAccess ?? 'admin',
    sections: [],
    origin: 'extension',
    operation,
    ...(operation.operationId !== undefined ? { purpose: `the shop's operation ${operation.operationId}` } : {}),
  }
}

export function operationOf(row: EndpointRow): ExtensionOperation | undefined {
  return (row as Partial<ExtensionRow>).operation
}

const WRITE_WITHHELD =
  'a write is sent only to callers its declared class must refuse (--extensions-probe-writes sends it to the others too)'
const READ_ONLY = 'read-only mode sends no extension write'
const UNKNOWN_CLASS_WRITE = 'a write, and no caller is known to be refused: the declared access class is unknown'

/**
 * The request, without a token, to a path no shop serves: how the target answers it says whether it routes before
 * it checks access. Read-only mode sends no extension write, and a read's route is judged from the caller its
 * class admits: a GET there.
 */
export function readingCall(readOnly: boolean): PlannedCall {
  const path = '/V1/shop-conformance-no-such-extension'
  return {
    request: { caller: 'none', store: 'first' },
    call: readOnly ? { method: 'GET', path } : { method: 'POST', path, body: {} },
  }
}

/**
 * Which callers an extension operation is sent to, under which store codes, and whom it is withheld from: the safety
 * rule first, then the tokens the run has (a caller without one is not sent as anyone else). The target reading
 * comes last, sent once per session whatever the operation.
 */
export function extensionPlan(row: EndpointRow, settings: ProbeSettings, probeWrites: boolean): ProbePlan {
  const op = operationOf(row)
  if (op === undefined) throw new Error(`${endpointText(row)} is not an extension operation`)
  const reading = readingCall(settings.readOnly)
  const call = (request: ProbeRequest): PlannedCall => {
    const refuses =
      op.declaredAccess !== undefined &&
      request.caller !== 'limited admin' &&
      ADMISSION[op.declaredAccess][request.caller] === 'refuse'
    return {
      request,
      call: {
        method: op.method,
        path: concretePath(op),
        ...(op.method === 'POST' || op.method === 'PUT' ? { body: {} } : {}),
        ...(refuses ? { refusalExpected: true as const } : {}),
      },
    }
  }
  if (op.writes && settings.readOnly)
    return { calls: [reading], withheld: ACCESS_CALLERS.map((caller) => ({ caller, why: READ_ONLY })) }
  const withheld: { caller: Caller; why: string }[] = []
  let callers: Caller[]
  let storeCaller: Caller | undefined
  if (op.declaredAccess === undefined) {
    // Who may call it is unknown: a read goes to the admin, whom every class but anon admits (and anon refuses no one).
    if (op.writes && !probeWrites)
      return { calls: [reading], withheld: [{ caller: 'admin', why: UNKNOWN_CLASS_WRITE }] }
    callers = ['admin']
    storeCaller = 'admin'
  } else {
    const admission = ADMISSION[op.declaredAccess]
    callers = []
    for (const caller of ACCESS_CALLERS) {
      if (admission[caller] === 'not stated') continue
      if (op.writes && admission[caller] === 'accept' && !probeWrites) withheld.push({ caller, why: WRITE_WITHHELD })
      else callers.push(caller)
    }
    // The store code is tried by the caller the class admits, else by one it refuses: a refusal under the second
    // store code is no unknown-store answer either.
    const admitted = admittedCaller(op.declaredAccess)
    storeCaller = callers.includes(admitted) ? admitted : callers[0]
  }
  // A caller the run has no token for (read-only mode registers no customer) is not sent as anyone else; a write is
  // never sent with the token of a customer the user configured. The store code is then tried by the last one sent.
  const hasToken = (caller: Caller) =>
    caller !== 'customer' || (op.writes ? settings.customer.writes : settings.customer.reads)
  const tokenless = callers.filter((c) => !hasToken(c))
  const sent = callers.filter(hasToken)
  if (storeCaller !== undefined && !sent.includes(storeCaller)) storeCaller = sent[sent.length - 1]
  withheld.push(...tokenless.map((caller) => ({ caller, why: `no ${caller} token in this run` })))
  return {
    calls: [
      ...sent.map((caller) => call({ caller, store: 'first' })),
      ...(storeCaller !== undefined ? [call({ caller: storeCaller, store: 'second' })] : []),
      reading,
    ],
    withheld,
  }
}

/** One call to the operation and its answer. */
interface OperationAnswer {
  request: ProbeRequest
  probe: Probe
}

/** The answers of the operation's calls, in plan order (without the target reading). */
export function operationAnswers(row: EndpointRow, answers: ProbeAnswers): OperationAnswer[] {
  const path = concretePath(row)
  return answers.plan.calls.flatMap((c) => {
    const probe = c.call.path === path && c.call.method === row.method ? answers.calls.get(callKey(c)) : undefined
    return probe === undefined ? [] : [{ request: c.request, probe }]
  })
}

export function operationAnswer(
  row: EndpointRow,
  answers: ProbeAnswers,
  caller: Caller,
  store: ProbeStore,
): Probe | undefined {
  return answerTo(answers, row.method, concretePath(row), { caller, store })
}

/**
 * Does a refusal show a route is there? A request without a token to a path that cannot exist gets the no-route
 * answer, not a refusal: the target routes before it checks access (as the platform does: "The route is matched
 * first (404), then access (401)"). On a target that refuses first, a write sent only to callers its class refuses
 * cannot show its route. With the reading's answer, the evidence of a verdict that read a refusal.
 */
export function targetReading(answers: ProbeAnswers): { refusalShowsRoute: boolean; probe: Probe | undefined } {
  const reading = answers.plan.calls.find((c) => c.call.path === readingCall(false).call.path)
  const probe = reading === undefined ? undefined : answers.calls.get(callKey(reading))
  return { refusalShowsRoute: probe?.answer !== undefined && !isRefusal(probe.answer.status), probe }
}

/**
 * Why nothing was sent for a verdict, in words and as the reports count it (`anySent`: the operation got other calls).
 */
export function notSent(plan: ProbePlan, anySent: boolean): { message: string; reason: NotJudgedReason } {
  const withheld = plan.withheld ?? []
  const whys = [...new Set(withheld.map((w) => w.why))]
  return {
    message: `not sent: ${whys.join('; ') || 'no caller to send it as'}`,
    reason: notSentReason(withheld, anySent),
  }
}

function notSentReason(withheld: NonNullable<ProbePlan['withheld']>, anySent: boolean): NotJudgedReason {
  if (anySent) return 'unusable-answer'
  if (withheld.some((w) => w.why === READ_ONLY)) return 'read-only'
  return withheld.length > 0 ? 'write-withheld' : 'unusable-answer'
}

/** What a verdict on an operation rests on: its declaration in the shop's schema. */
export function basisOf(row: EndpointRow, withClass = false): string {
  const op = defined(operationOf(row), `the extension operation of ${endpointText(row)} (a verdict on one asks)`)
  return `the shop's schema declares ${endpointText(op)}${withClass && op.declaredAccess !== undefined ? ` ${op.declaredAccess}` : ''}`
}
