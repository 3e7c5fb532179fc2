import type { EndpointRow } from '../spec/types.ts'
import type { Session } from '../target/session.ts'
import { admittedCaller, classify, exchangesOf, probe, quoteAnswer, revokesCallerTokens } from './probe.ts'
import type { Check, Verdict } from './types.ts'

/** The endpoint answers under the second store code as under the configured one (a store code can replace `default`). */
export async function storeCode(row: EndpointRow, session: Session): Promise<Verdict> {
  // A call that revokes the caller's tokens is made once with a customer (by the access check); here the
  // admin, whom self endpoints also admit, makes it, so no customer token is spent twice.
  const caller = revokesCallerTokens(row) ? 'admin' : admittedCaller(row.access)
  const { storeCode: first, secondStoreCode: second } = session.seed
  const [c, s] = await Promise.all([probe(session, row, caller, first), probe(session, row, caller, second)])
  const exchanges = exchangesOf(c, s)
  const details = { caller, stores: [first, second] }
  const cKind = classify(session, c)
  if (cKind === 'no answer' || cKind === 'no-route' || cKind === 'not sent') {
    const reason = cKind === 'no answer' ? 'no-answer' : cKind === 'no-route' ? 'route-missing' : c.unavailableReason
    return { status: 'skipped', message: `not judged: under "${first}" the endpoint gave ${quoteAnswer(c)} (see the route check)`, exchanges, details, ...(reason !== undefined ? { reason } : {}) }
  }
  const sKind = classify(session, s)
  if (sKind === 'no answer') {
    return { status: 'failed', message: `no answer under store code "${second}": ${quoteAnswer(s)}`, exchanges, details }
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

export const storeCodeCheck: Check = {
  name: 'store-code',
  description: 'The endpoint is served under a second store code as under the configured one.',
  spec: ['What the service does (a store code can replace `default`)'],
  appliesTo: () => true,
  run: storeCode,
}
