import type { EndpointRow } from '../spec/types.ts'
import type { Session } from '../shop/session.ts'
import { unanswered } from '../shop/answer-text.ts'
import { admittedCaller, classify, exchangesOf, probeOne, quoteAnswer, revokesCallerTokens, unusable, type ProbeRequest } from './probe.ts'
import { witnessProbe } from './access-probes.ts'
import type { Verdict } from '../results/verdict.ts'
import type { Check } from './types.ts'
import { STORE_CODE_RULES } from '../spec/rules.ts'

/** The endpoint answers under the second store code as under the configured one (a store code can replace `default`). */
export async function storeCode(row: EndpointRow, session: Session): Promise<Verdict> {
  const [atFirst, atSecond] = storeCodePair(row)
  const caller = atFirst.caller
  const { storeCode: first, secondStoreCode: second } = session.seed
  // Under the configured store code the admitted caller's answer the route check reads (witnessProbe), but for a call
  // that revokes the caller's tokens, made by the admin here.
  const [c, s] = await Promise.all([revokesCallerTokens(row) ? probeOne(session, row, atFirst) : witnessProbe(session, row), probeOne(session, row, atSecond)])
  const exchanges = exchangesOf(c, s)
  const details = { caller, stores: [first, second] }
  const cKind = classify(session, c)
  if (cKind === 'no answer' || cKind === 'no-route' || cKind === 'not sent') {
    const reason = cKind === 'no answer' ? unanswered(c).reason : cKind === 'no-route' ? 'route-missing' : c.unavailableReason
    return { status: 'skipped', message: `not judged: under "${first}" the endpoint gave ${quoteAnswer(c)} (see the route check)`, exchanges, details, ...(reason !== undefined ? { reason } : {}) }
  }
  // A 5xx or a body that is not JSON under the configured store says nothing about store codes (the route
  // check fails it); under the second one it says neither "served" nor "not served".
  const broken = unusable(c)
  if (broken !== undefined) return { status: 'skipped', message: `not judged: under "${first}" the endpoint gave ${broken} (see the route check)`, exchanges, details, reason: 'unusable-answer' }
  const sKind = classify(session, s)
  if (sKind === 'no answer') {
    const why = unanswered(s)
    return { status: 'skipped', message: `not judged: no answer under store code "${second}": ${why.text}`, exchanges, details, reason: why.reason }
  }
  const brokenSecond = unusable(s)
  if (sKind !== 'no-route' && brokenSecond !== undefined) {
    return { status: 'skipped', message: `not judged: under "${second}" the endpoint gave ${brokenSecond}, under "${first}" ${quoteAnswer(c)}`, exchanges, details, reason: 'unusable-answer' }
  }
  if (sKind === 'no-route') {
    return {
      status: 'failed',
      message: `under store code "${second}" the endpoint answered like the target's no-route answer (${quoteAnswer(s)}), under "${first}" ${quoteAnswer(c)}`,
      exchanges,
      details,
    }
  }
  if (session.looksLikeUnknownStore(s.answer!, s.path) && !session.looksLikeUnknownStore(c.answer!, c.path)) {
    return {
      status: 'failed',
      message: `under store code "${second}" the endpoint answered as for an unknown store code (${quoteAnswer(s)}), under "${first}" ${quoteAnswer(c)}`,
      exchanges,
      details,
    }
  }
  return { status: 'passed', message: `served under "${second}" (${quoteAnswer(s)}) as under "${first}" (${quoteAnswer(c)})`, exchanges, details }
}

/** The same caller under both store codes. */
function storeCodePair(row: EndpointRow): [ProbeRequest, ProbeRequest] {
  // A call that revokes the caller's tokens is made once with a customer (by the access check); here the
  // admin, whom self endpoints also admit, makes it, so no customer token is spent twice.
  const caller = revokesCallerTokens(row) ? 'admin' : admittedCaller(row.access)
  return [
    { caller, store: 'first' },
    { caller, store: 'second' },
  ]
}

export const storeCodeCheck: Check = {
  name: 'store-code',
  description: 'The endpoint is served under a second store code as under the configured one.',
  spec: ['What the service does (a store code can replace `default`)'],
  rules: Object.values(STORE_CODE_RULES),
  appliesTo: () => true,
  // The configured store code's call is the route check's (a restricted endpoint's valid request: in words).
  requests: (row) => {
    const [first, second] = storeCodePair(row)
    return row.access === 'anon' || revokesCallerTokens(row) ? [first, second] : [second]
  },
  run: storeCode,
}
