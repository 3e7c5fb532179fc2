import type { EndpointRow } from '../spec/types.ts'
import type { Session } from '../target/session.ts'
import { admittedCaller, classify, exchangesOf, probe, quoteAnswer } from './probe.ts'
import type { Check, Verdict } from './types.ts'

/** The endpoint exists at its method and path: the caller its access class admits gets no no-route answer. */
export async function route(row: EndpointRow, session: Session): Promise<Verdict> {
  const p = await probe(session, row, admittedCaller(row.access), session.seed.storeCode)
  const exchanges = exchangesOf(p)
  const details = { caller: p.caller, store: p.store, path: p.path }
  switch (classify(session, p)) {
    case 'not sent':
      return { status: 'skipped', message: `not probed: ${p.unavailable}`, exchanges, details }
    case 'no answer':
      return { status: 'failed', message: `no answer from ${row.method} ${p.path}: ${quoteAnswer(p)}`, exchanges, details }
    case 'no-route':
      return {
        status: 'failed',
        message: `${row.method} ${p.path} answered like the target's no-route answer (${quoteAnswer(p)}): the endpoint is not served at this method and path`,
        exchanges,
        details,
      }
    default:
      return { status: 'passed', message: `served: answered ${quoteAnswer(p)}, not the no-route answer`, exchanges, details }
  }
}

export const routeCheck: Check = {
  name: 'route',
  description: 'The endpoint exists at its method and path.',
  spec: ['Endpoints'],
  appliesTo: () => true,
  run: route,
}
