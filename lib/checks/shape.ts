import { SetupError } from '../setup/provision.ts'
import type { EndpointRow } from '../spec/types.ts'
import type { Session } from '../shop/session.ts'
import { describeAnswer, unanswered } from '../shop/answer-text.ts'
import { LISTED, serverErrorOf } from '../shop/server-error.ts'
import { requestTabled } from '../spec/tabled.ts'
import { judgeCarried } from './carried-values.ts'
import { expectationFor, judgeShape, type Expectation } from './judge-shape.ts'
import { describeExpectation, notOfShape } from './shape-words.ts'
import { validCall } from './scenario-call.ts'
import type { Verdict } from '../results/verdict.ts'
import type { Check } from './types.ts'
import { SHAPE_RULES, type Rule } from '../spec/rules.ts'
import type { Answer, Outcome } from '../shop/request.ts'

/** The response of a valid call has the shape or return type the spec gives for the endpoint. */
async function shape(row: EndpointRow, session: Session): Promise<Verdict> {
  const expectation = expectationFor(row)
  if (expectation.kind === 'not-shown')
    return { status: 'skipped', message: `not shown: ${expectation.reason}`, exchanges: [] }
  let sent
  try {
    sent = await validCall(session, row)
  } catch (err) {
    if (!(err instanceof SetupError)) throw err
    return { status: 'skipped', message: `not judged: ${err.message}`, exchanges: err.exchanges, reason: err.reason }
  }
  const noRoute = sent.outcome.answer !== undefined && session.looksLikeNoRoute(sent.outcome.answer, sent.path)
  return { ...judgeShapeAnswer(row, sent.outcome, sent.prepared.carries, noRoute), exchanges: [sent.outcome.exchange] }
}

/**
 * The answer to the valid call, judged (pure): its type or tabled shape, and what it must carry beside (the id of
 * the entity of the run's own a read names, the values a save set). A refused or missing answer judges nothing;
 * `noRoute`: the answer is the target's no-route answer (the route is missing, which the route check judges).
 */
export function judgeShapeAnswer(
  row: EndpointRow,
  outcome: Pick<Outcome, 'answer' | 'failure'>,
  carries?: { values: Record<string, unknown>; rule: Rule },
  noRoute = false,
): Omit<Verdict, 'exchanges'> {
  const expectation = expectationFor(row)
  const answer = outcome.answer
  const what = row.returns ?? describeExpectation(expectation)
  if (answer === undefined) {
    const why = unanswered(outcome)
    return { status: 'skipped', message: `not judged: no answer to a valid call: ${why.text}`, reason: why.reason }
  }
  const rules = [SHAPE_RULES.types, SHAPE_RULES.resource]
  const error = serverErrorOf(answer)
  if (error !== undefined) return judgeServerError(row, error, what, rules)
  const unjudged = notTheEndpointsAnswer(answer, noRoute)
  if (unjudged !== undefined) return unjudged
  return judgeBody(answer.body, expectation, what, rules, carries)
}

/**
 * A server error of the shop's application to the call the detail table documents is the endpoint's failure: here
 * where no body-keys check judges the call (a read, a delete), there where one does. Elsewhere the request is the
 * suite's reading of the platform's, a 5xx may be its fault, and the run lists it; a gateway's is no answer.
 */
function judgeServerError(
  row: EndpointRow,
  error: NonNullable<ReturnType<typeof serverErrorOf>>,
  what: string,
  rules: Rule[],
): Omit<Verdict, 'exchanges'> {
  const ofApplication = error.kind === 'application' || error.kind === 'not-implemented'
  const documented = requestTabled(row) && ofApplication
  if (documented && !(row.params ?? []).some((p) => p.in === 'body'))
    return { status: 'failed', message: `the documented call answered ${error.text}, not ${what}`, rules }
  let why = "no answer of the shop's application"
  if (documented) why = 'the body-keys check judges a server error to the documented call'
  else if (ofApplication)
    why = "the spec does not table this request, so the call may be the suite's own reading of the platform's"
  return {
    status: 'skipped',
    message: `not judged: the valid call answered ${error.text}: ${why}; ${LISTED}`,
    reason: 'server-error',
  }
}

/** An answer that is not the endpoint's response to judge: the target's no-route answer, or a refusal. */
function notTheEndpointsAnswer(answer: Answer, noRoute: boolean): Omit<Verdict, 'exchanges'> | undefined {
  if (noRoute) {
    // The route is missing, not the call refused: the route check judges that (a real 2.4.7's stock media list).
    return {
      status: 'skipped',
      message: `not judged: the valid call got the target's no-route answer (${describeAnswer(answer)}): the endpoint is not served (see the route check)`,
      reason: 'route-missing',
    }
  }
  if (answer.status < 200 || answer.status >= 300) {
    // A refused call has no response of the endpoint's type to judge; why it was refused is the body-keys
    // check's question (or, for reads, the workflows').
    return {
      status: 'skipped',
      message: `not judged: the valid call was refused (${describeAnswer(answer)})`,
      reason: 'target-refused',
    }
  }
  return undefined
}

/** A success's body judged: its type or tabled shape, then what it must carry beside. */
function judgeBody(
  body: unknown,
  expectation: Expectation,
  what: string,
  rules: Rule[],
  carries: { values: Record<string, unknown>; rule: Rule } | undefined,
): Omit<Verdict, 'exchanges'> {
  const judged = judgeShape(body, expectation)
  const warnings = judged.warnings.length > 0 ? { warnings: judged.warnings } : {}
  if (judged.status === 'failed') {
    // Every mismatch in the details; the message names the first few.
    return {
      status: 'failed',
      message: notOfShape('the answer', what, judged.failures),
      rules,
      details: { mismatches: judged.failures },
      ...warnings,
    }
  }
  if (carries !== undefined) rules.push(carries.rule)
  const missing = carries === undefined ? undefined : judgeCarried(`the answer (${what})`, body, carries)
  if (missing !== undefined) return { status: 'failed', message: missing, rules, ...warnings }
  return {
    rules,
    status: judged.status,
    message:
      judged.status === 'passed'
        ? `the answer is ${what}${judged.warnings.length > 0 ? ` (${judged.warnings.length} warning${judged.warnings.length > 1 ? 's' : ''})` : ''}`
        : `not judged: ${judged.reason ?? ''}`,
    ...warnings,
  }
}

export const shapeCheck: Check = {
  name: 'shape',
  description: 'The response has the shape or return type the spec gives.',
  spec: ['Resources and their fields', 'Endpoints › Endpoints with detailed shape'],
  rules: Object.values(SHAPE_RULES),
  appliesTo: (row) =>
    expectationFor(row).kind === 'not-shown' ? "not shown: the spec does not show this endpoint's response" : true,
  run: shape,
}
