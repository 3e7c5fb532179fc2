import type { EndpointRow } from '../spec/types.ts'
import { admittedCaller, isRefusal } from '../spec/admission.ts'
import { unanswered } from '../shop/answer-text.ts'
import type { Probe, ProbeAnswers, ProbeCaller } from '../shop/probe.ts'
import { answerTo } from '../shop/probe.ts'
import {
  classify,
  concretePath,
  exchangesOf,
  placeholder,
  quoteAnswer,
  revokesCallerTokens,
  unusable,
} from './probe.ts'
import { accessSequence, witnessAnswer } from './access-sequence.ts'
import { basisOf, notSent, operationAnswer, operationAnswers, operationOf, targetReading } from './extension-probes.ts'
import type { NotJudgedReason, Verdict } from '../results/verdict.ts'
import type { ProbeCheck } from './types.ts'
import { probeCheck } from './probe-check.ts'
import { STORE_CODE_RULES } from '../spec/rules.ts'
import { LISTED, serverErrorOf } from '../shop/server-error.ts'
import { defined } from '../base/defined.ts'

/**
 * The endpoint answers under the second store code as under the configured one (a store code can replace
 * `default`): the same caller's answers, the configured one's first — which must show the endpoint is there at all
 * (the route check's part) — then the second's, which must be neither the no-route answer nor the unknown-store one.
 */
export function judgeStoreCode(row: EndpointRow, answers: ProbeAnswers): Verdict {
  const extension = operationOf(row) !== undefined
  const [c, s] = extension ? extensionPair(row, answers) : specPair(row, answers)
  const reading = extension ? targetReading(answers) : undefined
  const framing = framingOf(row, answers, extension, [c, s])
  if (c === undefined || s === undefined) {
    const why = notSent(answers.plan, operationAnswers(row, answers).length > 0)
    return { status: 'skipped', message: why.message, exchanges: [], ...framing, reason: why.reason }
  }
  const judgement = judgementOf(extension, c, s, reading, framing)
  return configuredUnjudged(judgement) ?? secondUnjudged(judgement) ?? servedOrNot(judgement)
}

/** What every verdict of one judgement carries besides its exchanges: the pair's callers and stores, or the basis. */
function framingOf(
  row: EndpointRow,
  answers: ProbeAnswers,
  extension: boolean,
  [c, s]: [Probe | undefined, Probe | undefined],
): Pick<Verdict, 'details' | 'rules'> {
  const details = extension
    ? { basis: basisOf(row), ...(answers.plan.withheld?.length ? { withheld: answers.plan.withheld } : {}) }
    : { caller: c?.caller, stores: [c?.store, s?.store] }
  const rules = extension ? { rules: [STORE_CODE_RULES.served] } : {}
  return { details, ...rules }
}

/** One pair's judgement: its two answers, how its messages name what was called, and its verdicts' common parts. */
interface Judgement {
  /** The answer under the configured store code. */
  c: Probe
  /** The answer under the second store code. */
  s: Probe
  /** The target's reading call (an extension operation's): whether a refusal there shows a route at all. */
  reading: ReturnType<typeof targetReading> | undefined
  /** 'the endpoint' or 'the operation', as the messages name it. */
  thing: string
  /** The check that judges whether it is there at all, which a message not judging points to. */
  route: string
  verdict: (status: Verdict['status'], message: string, extra?: Partial<Verdict>) => Verdict
}

/**
 * The judgement's parts. Its evidence is the pair's exchanges, and the target's reading call's when either was
 * refused (the reading says whether a refusal shows a route).
 */
function judgementOf(
  extension: boolean,
  c: Probe,
  s: Probe,
  reading: Judgement['reading'],
  framing: Pick<Verdict, 'details' | 'rules'>,
): Judgement {
  const refused = [c, s].some((p) => p.answer !== undefined && isRefusal(p.answer.status))
  const exchanges = [
    ...exchangesOf(c, s),
    ...(reading?.probe !== undefined && refused ? exchangesOf(reading.probe) : []),
  ]
  return {
    c,
    s,
    reading,
    thing: extension ? 'the operation' : 'the endpoint',
    route: extension ? 'extension-route' : 'route',
    verdict: (status, message, extra = {}) => ({ status, message, exchanges, ...framing, ...extra }),
  }
}

/**
 * Not judged when the configured store code's answer shows nothing to compare with: none came, the no-route answer
 * or no call (the route check's part), a server error, an answer that cannot be read.
 */
function configuredUnjudged({ c, thing, route, verdict }: Judgement): Verdict | undefined {
  const first = c.store
  const cKind = classify(c)
  if (cKind === 'no answer' || cKind === 'no-route' || cKind === 'not sent') {
    let reason: NotJudgedReason | undefined = c.unavailableReason
    if (cKind === 'no answer') reason = unanswered(c).reason
    else if (cKind === 'no-route') reason = 'route-missing'
    return verdict(
      'skipped',
      `not judged: under "${first}" ${thing} gave ${quoteAnswer(c)} (see the ${route} check)`,
      reason !== undefined ? { reason } : {},
    )
  }
  // A server error under the configured store is no answer the second store's can be compared with (the run lists
  // it); a body that is not JSON there says nothing about store codes (the route check fails it). Under the second
  // one either says neither "served" nor "not served".
  const error = serverErrorOf(c.answer)
  if (error !== undefined)
    return verdict(
      'skipped',
      `not judged: under "${first}" ${thing} answered ${error.text}: no answer of the endpoint's to read the second store code's against; ${LISTED}`,
      { reason: 'server-error' },
    )
  const broken = unusable(c)
  if (broken !== undefined)
    return verdict('skipped', `not judged: under "${first}" ${thing} gave ${broken} (see the ${route} check)`, {
      reason: 'unusable-answer',
    })
  return undefined
}

/**
 * Not judged when the second store code's answer says neither "served" nor "not served": no call, no answer, a
 * server error or an answer that cannot be read (the no-route answer is judged, whatever its body).
 */
function secondUnjudged({ c, s, thing, verdict }: Judgement): Verdict | undefined {
  const [first, second] = [c.store, s.store]
  const sKind = classify(s)
  // A call under the second store code that was not sent (a recording without it) shows nothing: never "served".
  if (sKind === 'not sent')
    return verdict(
      'skipped',
      `not judged: the call under store code "${second}" was ${quoteAnswer(s)}, under "${first}" ${thing} answered ${quoteAnswer(c)}`,
      s.unavailableReason !== undefined ? { reason: s.unavailableReason } : {},
    )
  const secondAnswer = s.answer
  if (secondAnswer === undefined) {
    const why = unanswered(s)
    return verdict('skipped', `not judged: no answer under store code "${second}": ${why.text}`, { reason: why.reason })
  }
  const secondError = sKind !== 'no-route' ? serverErrorOf(secondAnswer) : undefined
  if (secondError !== undefined) {
    return verdict(
      'skipped',
      `not judged: under "${second}" ${thing} answered ${secondError.text}, under "${first}" ${quoteAnswer(c)}; ${LISTED}`,
      { reason: 'server-error' },
    )
  }
  const brokenSecond = unusable(s)
  if (sKind !== 'no-route' && brokenSecond !== undefined) {
    return verdict(
      'skipped',
      `not judged: under "${second}" ${thing} gave ${brokenSecond}, under "${first}" ${quoteAnswer(c)}`,
      { reason: 'unusable-answer' },
    )
  }
  return undefined
}

/**
 * The rule on two answers both judged usable: the no-route or the unknown-store answer under the second store code
 * fails it (a refusal shows nothing where the target refuses a path that cannot exist too); any other passes.
 */
function servedOrNot({ c, s, reading, thing, verdict }: Judgement): Verdict {
  const [first, second] = [c.store, s.store]
  if (classify(s) === 'no-route') {
    return verdict(
      'failed',
      `under store code "${second}" ${thing} answered like the target's no-route answer (${quoteAnswer(s)}), under "${first}" ${quoteAnswer(c)}`,
    )
  }
  if (
    reading !== undefined &&
    !reading.refusalShowsRoute &&
    isRefusal(defined(s.answer, 'the answer under the second store code (secondUnjudged saw it)').status)
  ) {
    return verdict(
      'skipped',
      `not judged: refused under store code "${second}" (${quoteAnswer(s)}), and this target refuses a path that cannot exist too, so a refusal shows no store code is served`,
      { reason: 'unusable-answer' },
    )
  }
  if (s.unknownStore === true && c.unknownStore !== true) {
    return verdict(
      'failed',
      `under store code "${second}" ${thing} answered as for an unknown store code (${quoteAnswer(s)}), under "${first}" ${quoteAnswer(c)}`,
    )
  }
  return verdict('passed', `served under "${second}" (${quoteAnswer(s)}) as under "${first}" (${quoteAnswer(c)})`)
}

/**
 * Under the configured store code the admitted caller's answer the route check reads (the access check's witness),
 * but for a call that revokes the caller's tokens — made once with a customer by the access check — the admin's,
 * whom self endpoints also admit, so no customer token is spent twice.
 */
function callerOf(row: EndpointRow): ProbeCaller {
  return revokesCallerTokens(row) ? 'admin' : admittedCaller(row.access)
}

function specPair(row: EndpointRow, answers: ProbeAnswers): [Probe | undefined, Probe | undefined] {
  const at = (store: 'first' | 'second') =>
    answerTo(answers, row.method, concretePath(row), { caller: callerOf(row), store })
  return [revokesCallerTokens(row) ? at('first') : witnessAnswer(row, answers), at('second')]
}

/** An operation's second-store call, and the same caller's under the configured store code. */
function extensionPair(row: EndpointRow, answers: ProbeAnswers): [Probe | undefined, Probe | undefined] {
  const second = operationAnswers(row, answers).find((a) => a.request.store === 'second')
  if (second === undefined || second.request.caller === 'limited admin') return [undefined, undefined]
  return [operationAnswer(row, answers, second.request.caller, 'first'), second.probe]
}

export const storeCodeCheck: ProbeCheck = probeCheck({
  name: 'store-code',
  description: 'The endpoint is served under a second store code as under the configured one.',
  spec: ['What the service does (a store code can replace `default`)'],
  rules: [STORE_CODE_RULES.served],
  appliesTo: () => true,
  probes: (row, settings) => {
    const caller = callerOf(row)
    const sequence = revokesCallerTokens(row) ? undefined : accessSequence(row, settings)
    const calls = [
      ...(sequence === undefined ? [placeholder(row, caller, 'first')] : []),
      placeholder(row, caller, 'second'),
    ]
    return { calls, ...(sequence !== undefined ? { sequence } : {}) }
  },
  judge: judgeStoreCode,
})
