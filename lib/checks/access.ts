import type { AccessClass, EndpointRow } from '../spec/types.ts'
import type { Caller, Session } from '../target/session.ts'
import { classify, exchangesOf, probe, quoteAnswer, type ProbeKind } from './probe.ts'
import type { Check, Verdict } from './types.ts'

type Expectation = 'refuse' | 'accept' | 'not stated'

const CALLERS: readonly Caller[] = ['none', 'malformed', 'customer', 'admin']

/**
 * Authentication 2–4: admin endpoints take only an admin token; self endpoints a customer or an admin token
 * (so neither no token nor a token that is neither); anonymous ones need none — the spec does not say what
 * a token does there, so those cells are shown but not judged.
 */
const EXPECTED: Record<AccessClass, Record<Caller, Expectation>> = {
  admin: { none: 'refuse', malformed: 'refuse', customer: 'refuse', admin: 'accept' },
  self: { none: 'refuse', malformed: 'refuse', customer: 'accept', admin: 'accept' },
  anon: { none: 'accept', malformed: 'not stated', customer: 'not stated', admin: 'not stated' },
}

export interface AccessCell {
  expected: Expectation
  seen: ProbeKind
  answer: string
  ok: boolean | null
}

/** Each caller is refused (401/403) or let through (any other answer but no-route) as the endpoint's access class says. */
export async function access(row: EndpointRow, session: Session): Promise<Verdict> {
  const probes = await Promise.all(CALLERS.map((caller) => probe(session, row, caller, session.seed.storeCode)))
  const matrix = {} as Record<Caller, AccessCell>
  probes.forEach((p, i) => {
    const caller = CALLERS[i]!
    const expected = EXPECTED[row.access][caller]
    const seen = classify(session, p)
    const ok = expected === 'not stated' || seen === 'not sent' ? null : expected === 'refuse' ? seen === 'refused' : seen === 'accepted'
    matrix[caller] = { expected, seen, answer: quoteAnswer(p), ok }
  })
  const exchanges = exchangesOf(...probes)
  const details = { accessClass: row.access, matrix }
  const cells = CALLERS.map((c) => [c, matrix[c]] as const)

  if (cells.every(([, cell]) => cell.seen === 'no-route')) {
    return { status: 'skipped', message: 'not judged: the target answered no-route to every caller (see the route check)', exchanges, details, reason: 'route-missing' }
  }
  const wrong = cells.filter(([, cell]) => cell.ok === false)
  if (wrong.length > 0) {
    const what = wrong.map(([caller, cell]) => `${label(caller)} ${cell.seen === 'accepted' ? 'let through' : cell.seen} (${cell.answer}) where the spec says ${cell.expected}`)
    return { status: 'failed', message: `${row.access} endpoint: ${what.join('; ')}`, exchanges, details }
  }
  const unsent = cells.filter(([, cell]) => cell.seen === 'not sent' && cell.expected !== 'not stated')
  if (unsent.length > 0) {
    const reason = probes[CALLERS.indexOf(unsent[0]![0])]!.unavailableReason
    return { status: 'skipped', message: `not fully judged: ${unsent.map(([c, cell]) => `${label(c)} ${cell.answer}`).join('; ')}`, exchanges, details, ...(reason !== undefined ? { reason } : {}) }
  }
  const judged = cells.filter(([, cell]) => cell.ok === true).map(([caller, cell]) => `${label(caller)} ${cell.expected === 'refuse' ? 'refused' : 'let through'} (${cell.answer.split(' ')[0]})`)
  return { status: 'passed', message: `${row.access} endpoint: ${judged.join(', ')}`, exchanges, details }
}

function label(caller: Caller): string {
  return caller === 'none' ? 'no token' : caller === 'malformed' ? 'malformed token' : `${caller} token`
}

export const accessCheck: Check = {
  name: 'access',
  description: 'Each caller is refused or let through as the endpoint\'s access class says.',
  spec: ['Authentication 1–4', 'Endpoints (access marks)'],
  appliesTo: () => true,
  run: access,
}
