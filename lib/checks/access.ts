import type { EndpointRow } from '../spec/types.ts'
import { ACCESS_CALLERS, ADMISSION, judgeCell, seenOfAnswer, type Admission, type Seen } from '../spec/admission.ts'
import { ACCESS_RULES } from '../spec/rules.ts'
import type { Caller, Session } from '../shop/session.ts'
import { admittedCaller, exchangesOf, probeOne, quoteAnswer, unusable, type Probe, type ProbeRequest } from './probe.ts'
import type { NotJudgedReason, Verdict } from '../results/verdict.ts'
import type { Check } from './types.ts'

export type { Seen } from '../spec/admission.ts'
export { judgeCell }

const CALLERS = ACCESS_CALLERS

/** Every caller, under the configured store code. */
const REQUESTS: readonly ProbeRequest[] = CALLERS.map((caller) => ({ caller, store: 'first' }))

export interface AccessCell {
  /** What the spec's access class says this caller gets. */
  expected: Admission
  seen: Seen
  answer: string
  /** true: as the spec says; false: against it; null: not judged (not stated, not sent, or not readable). */
  ok: boolean | null
}

export function seenOf(session: Session, p: Probe): Seen {
  if (p.unavailable !== undefined) return 'not sent'
  return seenOfAnswer(p.answer, p.answer !== undefined && session.looksLikeNoRoute(p.answer, p.path))
}

/** Each caller is refused (401/403) or let through (any other answer but no-route) as the endpoint's access class says. */
export async function access(row: EndpointRow, session: Session): Promise<Verdict> {
  const probes = await Promise.all(REQUESTS.map((request) => probeOne(session, row, request)))
  const matrix = {} as Record<Caller, AccessCell>
  probes.forEach((p, i) => {
    const caller = CALLERS[i]!
    const expected = ADMISSION[row.access][caller]
    const seen = seenOf(session, p)
    matrix[caller] = { expected, seen, answer: quoteAnswer(p), ok: judgeCell(expected, seen) }
  })
  const exchanges = exchangesOf(...probes)
  const details = { accessClass: row.access, matrix }
  const rules = [ACCESS_RULES[row.access]]
  const cells = CALLERS.map((c) => [c, matrix[c]] as const)
  const notJudged = (message: string, reason: NotJudgedReason): Verdict => ({ status: 'skipped', message, exchanges, details, rules, reason })

  // Every caller that was sent: read-only mode sends no customer (it registers none), and a full run's rule holds.
  if (cells.every(([, cell]) => cell.seen === 'no-route' || cell.seen === 'not sent') && cells.some(([, cell]) => cell.seen === 'no-route')) {
    return notJudged('not judged: the target answered no-route to every caller (see the route check)', 'route-missing')
  }
  // The admitted caller's answer is what a refusal is told apart from: without it, no cell can be read.
  const admitted = admittedCaller(row.access)
  const admittedProbe = probes[CALLERS.indexOf(admitted)]!
  const broken = unusable(admittedProbe)
  if (broken !== undefined) {
    return notJudged(
      `not judged: the caller the spec admits (${label(admitted)}) got ${broken}, so no answer here is about access (see the route check)`,
      admittedProbe.answer === undefined ? 'no-answer' : 'unusable-answer',
    )
  }
  const wrong = cells.filter(([, cell]) => cell.ok === false)
  if (wrong.length > 0) {
    const what = wrong.map(([caller, cell]) => `${label(caller)} ${cell.seen === 'accepted' ? 'let through' : cell.seen} (${cell.answer}) where the spec says ${cell.expected}`)
    return { status: 'failed', message: `${row.access} endpoint: ${what.join('; ')}`, exchanges, details, rules }
  }
  const open = cells.filter(([, cell]) => cell.ok === null && cell.expected !== 'not stated')
  if (open.length > 0) {
    const unsent = open.find(([, cell]) => cell.seen === 'not sent')
    const reason = unsent === undefined ? 'unusable-answer' : (probes[CALLERS.indexOf(unsent[0])]!.unavailableReason ?? 'suite-error')
    return notJudged(`not fully judged: ${open.map(([c, cell]) => `${label(c)} ${describeOpen(cell)}`).join('; ')}`, reason)
  }
  const judged = cells.filter(([, cell]) => cell.ok === true).map(([caller, cell]) => `${label(caller)} ${cell.expected === 'refuse' ? 'refused' : 'let through'} (${cell.answer.split(' ')[0]})`)
  return { status: 'passed', message: `${row.access} endpoint: ${judged.join(', ')}`, exchanges, details, rules }
}

/** Why a cell the spec decides was left unjudged, in words. */
export function describeOpen(cell: Pick<AccessCell, 'seen' | 'answer'>): string {
  if (cell.seen === 'other 4xx' || cell.seen === 'no-route') {
    return `answered ${cell.answer}: neither a refusal (401/403) nor a success, and the spec does not show the status of a refusal`
  }
  if (cell.seen === 'no usable answer') return `got no usable answer (${cell.answer})`
  return cell.answer
}

function label(caller: Caller): string {
  return caller === 'none' ? 'no token' : caller === 'malformed' ? 'malformed token' : `${caller} token`
}

export const accessCheck: Check = {
  name: 'access',
  description: 'Each caller is refused or let through as the endpoint\'s access class says.',
  spec: ['Authentication 1–4', 'Endpoints (access marks)'],
  rules: Object.values(ACCESS_RULES),
  appliesTo: () => true,
  requests: () => REQUESTS,
  run: access,
}
