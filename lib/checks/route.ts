import type { EndpointRow } from '../spec/types.ts'
import type { Session } from '../shop/session.ts'
import { unanswered } from '../shop/answer-text.ts'
import { clip } from '../base/text.ts'
import { admittedCaller, classify, exchangesOf, quoteAnswer, unjudgedFor, type ProbeRequest } from './probe.ts'
import { witnessProbe } from './access-probes.ts'
import type { Verdict } from '../results/verdict.ts'
import type { Check } from './types.ts'
import { ROUTE_RULES } from '../spec/rules.ts'
import { endpointText } from '../spec/endpoint-id.ts'

/** The endpoint exists at its method and path: the caller its access class admits gets no no-route answer. */
export async function route(row: EndpointRow, session: Session): Promise<Verdict> {
  const p = await witnessProbe(session, row)
  const exchanges = exchangesOf(p)
  const details = { caller: p.caller, store: p.store, path: p.path }
  switch (classify(session, p)) {
    case 'not sent':
      return { status: 'skipped', message: `not probed: ${p.unavailable}`, exchanges, details, ...unjudgedFor(p) }
    case 'no answer': {
      // A slow shop is not a failing shop: no answer judges nothing (a GET was already asked twice, session.ts).
      const why = unanswered(p)
      return { status: 'skipped', message: `not judged: no answer from ${endpointText({ method: row.method, path: p.path })}: ${why.text}`, exchanges, details, reason: why.reason }
    }
    case 'no-route':
      return {
        status: 'failed',
        message: `${endpointText({ method: row.method, path: p.path })} answered like the target's no-route answer (${quoteAnswer(p)}): the endpoint is not served at this method and path`,
        exchanges,
        details,
      }
    default: {
      const answer = p.answer!
      if (answer.status >= 500) {
        return { status: 'failed', message: `${endpointText({ method: row.method, path: p.path })} answered a server error (${quoteAnswer(p)}) to a well-formed call`, exchanges, details }
      }
      // "Payloads are JSON" (spec, What the service does): an HTML page or nothing where JSON belongs is not the interface.
      if (!answer.json && answer.status !== 204) {
        const type = answer.headers['content-type'] ?? 'no content type'
        const what = answer.text.trim() === '' ? 'an empty body' : `a body that is not JSON (${type}: ${JSON.stringify(clip(answer.text.trim(), 80))})`
        return { status: 'failed', message: `${endpointText({ method: row.method, path: p.path })} answered ${answer.status} with ${what}, where the spec says payloads are JSON`, exchanges, details }
      }
      return { status: 'passed', message: `served: answered ${quoteAnswer(p)}, not the no-route answer`, exchanges, details }
    }
  }
}

/**
 * The caller the endpoint's access class admits, under the configured store code: a placeholder call at an anonymous
 * endpoint; at a restricted one the access check's valid request (made of the run's own data, which --dry-run
 * describes in words).
 */
function routeRequests(row: EndpointRow): ProbeRequest[] {
  return row.access === 'anon' ? [{ caller: admittedCaller(row.access), store: 'first' }] : []
}

export const routeCheck: Check = {
  name: 'route',
  description: 'The endpoint exists at its method and path and answers JSON, not a server error.',
  spec: ['Endpoints', 'What the service does (payloads are JSON)'],
  rules: Object.values(ROUTE_RULES),
  appliesTo: () => true,
  requests: routeRequests,
  run: route,
}
