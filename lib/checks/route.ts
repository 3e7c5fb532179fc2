import type { EndpointRow } from '../spec/types.ts'
import { describeCaller, isRefusal } from '../spec/admission.ts'
import { unanswered } from '../shop/answer-text.ts'
import type { Probe, ProbeAnswers } from '../shop/probe.ts'
import type { Answer } from '../shop/request.ts'
import { defined } from '../base/defined.ts'
import { clip } from '../base/text.ts'
import { classify, exchangesOf, placeholder, quoteAnswer, unjudgedFor } from './probe.ts'
import { accessSequence, witnessAnswer } from './access-sequence.ts'
import { basisOf, notSent, operationAnswer, operationAnswers, operationOf, targetReading } from './extension-probes.ts'
import type { Verdict } from '../results/verdict.ts'
import type { ProbeCheck } from './types.ts'
import { probeCheck } from './probe-check.ts'
import { ROUTE_RULES } from '../spec/rules.ts'
import { LISTED, serverErrorOf } from '../shop/server-error.ts'
import { endpointText } from '../spec/endpoint-id.ts'
import type { ExtensionOperation } from '../schema/extensions.ts'
import { admittedCaller } from '../spec/admission.ts'

/** What an extension probe sends: no spec says what the operation takes, so nothing it sends is known to be valid. */
const PROBE_VALUES = 'placeholders in the path, an empty body for a write'

/**
 * `GET /V1/x answered like the target's no-route answer (404 "…"): the endpoint is not served`: the route rule broken,
 * as every verdict says it.
 */
export function notServed(what: string, quoted: string, thing = 'the endpoint'): string {
  return `${what} answered like the target's no-route answer (${quoted}): ${thing} is not served at this method and path`
}

/**
 * The endpoint exists at its method and path: the caller its access class admits gets no no-route answer, and JSON.
 * A server error from the shop's application is an answer at that method and path — served, whatever failed behind
 * it: the spec states no rule about server errors ("HTTP status code per error case: not shown"), and the request may
 * be the suite's own reading of a body the spec does not table (the run lists every server error it met). A gateway's
 * or an unavailable shop's 5xx, and a 501, show nothing either way: not judged (lib/shop/server-error.ts). A shop's
 * extension operation is read the same way from the answer of the caller its declared class admits (else of one it
 * refuses: a refusal is not the no-route answer, where the target routes before it checks access), except that a
 * server error to the values the suite made up for it judges nothing.
 */
export function judgeRoute(row: EndpointRow, answers: ProbeAnswers): Verdict {
  const op = operationOf(row)
  const reading = op !== undefined ? targetReading(answers) : undefined
  const p = op === undefined ? witnessAnswer(row, answers) : extensionWitness(row, op, answers)
  const details = op === undefined ? witnessDetails(p) : operationDetails(row, answers)
  const rules = op === undefined ? {} : { rules: [ROUTE_RULES.declared] }
  if (p === undefined) {
    const why = notSent(answers.plan, false)
    return { status: 'skipped', message: why.message, exchanges: [], details, ...rules, reason: why.reason }
  }
  const judgement = routeJudgement(row, op !== undefined, p, reading, { details, ...rules })
  const { at, verdict } = judgement
  switch (classify(p)) {
    case 'not sent':
      return verdict('skipped', `not probed: ${p.unavailable}`, unjudgedFor(p))
    case 'no answer': {
      // A slow shop is not a failing shop: no answer judges nothing (a GET was already asked twice, session.ts).
      const why = unanswered(p)
      return verdict('skipped', `not judged: no answer from ${at}: ${why.text}`, { reason: why.reason })
    }
    case 'no-route':
      return verdict(
        'failed',
        notServed(at, quoteAnswer(p), op !== undefined ? 'the operation its schema declares' : 'the endpoint'),
      )
    default:
      return judgeAnswered(judgement, defined(p.answer, 'the answer classify() read as accepted or refused'))
  }
}

/** One call's judgement: the call read, how its messages name it, and its verdicts' common parts. */
interface RouteJudgement {
  p: Probe
  /** A shop's extension operation, not a spec endpoint. */
  extension: boolean
  /** The target's reading call (an extension operation's): whether a refusal there shows a route at all. */
  reading: ReturnType<typeof targetReading> | undefined
  /** The call as the messages name it: its method and path (and an extension operation's caller). */
  at: string
  verdict: (status: Verdict['status'], message: string, extra?: Partial<Verdict>) => Verdict
}

/** The judgement's parts, its evidence the call's exchange and, for a refusal, the target reading's. */
function routeJudgement(
  row: EndpointRow,
  extension: boolean,
  p: Probe,
  reading: RouteJudgement['reading'],
  framing: Pick<Verdict, 'details' | 'rules'>,
): RouteJudgement {
  // A refusal read as "served" or left unjudged rests on the target reading too: its exchange is evidence.
  const exchanges = [
    ...exchangesOf(p),
    ...(reading?.probe !== undefined && p.answer !== undefined && isRefusal(p.answer.status)
      ? exchangesOf(reading.probe)
      : []),
  ]
  const at = `${endpointText({ method: row.method, path: p.path })}${extension ? ` (${describeCaller(p.caller)})` : ''}`
  return {
    p,
    extension,
    reading,
    at,
    verdict: (status, message, extra = {}) => ({ status, message, exchanges, ...framing, ...extra }),
  }
}

/**
 * An answer that is not the no-route answer: a server error read for what it shows; else served, unless it is not
 * JSON (a refusal of an extension operation shows the route only where the target routes before it checks access).
 */
function judgeAnswered(judgement: RouteJudgement, answer: Answer): Verdict {
  const { p, reading, at, verdict } = judgement
  const error = serverErrorOf(answer)
  if (error !== undefined) return judgeServerError(judgement, error)
  // An extension write is often sent only to callers its class refuses: their refusal shows the route, whatever its
  // body, on a target that routes before it checks access — and nothing on one that refuses first.
  const refusal = reading !== undefined && isRefusal(answer.status)
  if (refusal && !reading.refusalShowsRoute) {
    return verdict(
      'skipped',
      `not judged: ${at} was refused (${quoteAnswer(p)}), and this target refuses a path that cannot exist too, so a refusal does not show the operation is served`,
      { reason: 'unusable-answer' },
    )
  }
  // "Payloads are JSON" (spec, What the service does): an HTML page or nothing where JSON belongs is not the interface.
  if (!answer.json && answer.status !== 204 && !refusal) {
    const type = answer.headers['content-type'] ?? 'no content type'
    const what =
      answer.text.trim() === ''
        ? 'an empty body'
        : `a body that is not JSON (${type}: ${JSON.stringify(clip(answer.text.trim(), 80))})`
    return verdict('failed', `${at} answered ${answer.status} with ${what}, where the spec says payloads are JSON`)
  }
  return verdict(
    'passed',
    `served: ${judgement.extension ? `${at} ` : ''}answered ${quoteAnswer(p)}, ${refusal ? 'a refusal, which is not' : 'not'} the no-route answer`,
  )
}

/**
 * A server error: the shop's application answered at this method and path, so a spec endpoint is served; a gateway's
 * or an unavailable shop's shows nothing, nor does an extension operation's to the values the suite made up.
 */
function judgeServerError(
  { extension, at, verdict }: RouteJudgement,
  error: NonNullable<ReturnType<typeof serverErrorOf>>,
): Verdict {
  // The probe's values are made up (placeholders in the path, an empty body): a shop's own operation may well fail on
  // them, and a server error shows neither that the operation is served nor that it is not. The real 2.4.7-p7 shop
  // answered 500 to two of its own operations so (fixtures/observations/real-runs/2.4.7-p7): not a failure of its.
  if (extension)
    return verdict(
      'skipped',
      `not judged: ${at} answered ${error.text} to values the suite made up (${PROBE_VALUES}): a shop's own operation may fail on them, so the answer shows neither that it is served nor that it is not`,
      { reason: 'server-error' },
    )
  if (error.kind !== 'application')
    return verdict(
      'skipped',
      `not judged: ${at} answered ${error.text}, not the shop's application serving the call: it shows neither that the endpoint is served nor that it is not; ${LISTED}`,
      { reason: 'server-error' },
    )
  // The real 2.4.7-p7 shop answered 500 to a stale option id of the suite's and to a body its own schema documents.
  return verdict(
    'passed',
    `served: answered ${error.text}, not the no-route answer: the shop's application answered at this method and path, and a server error breaks no rule of the spec ("HTTP status code per error case: not shown"); ${LISTED}`,
  )
}

/** What a spec endpoint's verdict records: whose call was read, under which store code, at which path. */
function witnessDetails(p: Probe | undefined): Record<string, unknown> {
  return p === undefined ? {} : { caller: p.caller, store: p.store, path: p.path }
}

/** What an extension operation's verdict records: the schema's declaration, and what was withheld from which caller. */
function operationDetails(row: EndpointRow, answers: ProbeAnswers): Record<string, unknown> {
  return { basis: basisOf(row), ...(answers.plan.withheld?.length ? { withheld: answers.plan.withheld } : {}) }
}

/** The extension operation's call that shows it is there: the caller its class admits, else the first sent. */
function extensionWitness(row: EndpointRow, op: ExtensionOperation, answers: ProbeAnswers): Probe | undefined {
  const admitted = op.declaredAccess === undefined ? 'admin' : admittedCaller(op.declaredAccess)
  return (
    operationAnswer(row, answers, admitted, 'first') ??
    operationAnswers(row, answers).find((a) => a.request.store === 'first')?.probe
  )
}

export const routeCheck: ProbeCheck = probeCheck({
  name: 'route',
  description:
    "The endpoint exists at its method and path and answers JSON (a server error of the shop's shows it is served: listed, not failed).",
  spec: ['Endpoints', 'What the service does (payloads are JSON)'],
  rules: [ROUTE_RULES.served, ROUTE_RULES.json],
  appliesTo: () => true,
  // The caller the endpoint's access class admits, under the configured store code: a placeholder call at an
  // anonymous endpoint; at a restricted one the access check's valid request, whose witness's answer it reads.
  probes: (row, settings) => {
    const sequence = accessSequence(row, settings)
    return sequence !== undefined ? { calls: [], sequence } : { calls: [placeholder(row, 'none')] }
  },
  judge: judgeRoute,
})
