import type { EndpointRow } from '../spec/types.ts'
import { ACCESS_CALLERS, ADMISSION, judgeAccess, judgeCell, seenOfAnswer, type AccessCell, type Admission, type Seen } from '../spec/admission.ts'
import { ACCESS_RULES } from '../spec/rules.ts'
import { unanswered } from '../shop/answer-text.ts'
import type { Session } from '../shop/session.ts'
import { exchangesOf, probe, probeOne, quoteAnswer, unusable, type Probe, type ProbeRequest } from './probe.ts'
import { accessProbes, type AccessProbeCaller, type AccessProbes } from './access-probes.ts'
import type { NotJudgedReason, Verdict } from '../results/verdict.ts'
import type { Check } from './types.ts'

export type { Seen } from '../spec/admission.ts'
export { describeOpenCell as describeOpen } from '../spec/admission.ts'
export { judgeCell }

/** Every caller, under the configured store code: an anonymous endpoint's probes (placeholder values). */
const ANON_REQUESTS: readonly ProbeRequest[] = ACCESS_CALLERS.map((caller) => ({ caller, store: 'first' }))

export interface AccessMatrixCell {
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

/** A probe as a cell of the judgement. */
export function cellOf(session: Session, caller: string, expected: Admission, p: Probe): AccessCell<NotJudgedReason> {
  const seen = seenOf(session, p)
  // An answer that says nothing about access is quoted as what it is: no answer, a server error, not JSON.
  const answer = seen === 'no usable answer' ? (unusable(p) ?? quoteAnswer(p)) : quoteAnswer(p)
  const reason = p.unavailableReason ?? (p.unavailable === undefined && p.answer === undefined ? unanswered(p).reason : undefined)
  return { caller, expected, seen, answer, ...(reason !== undefined ? { reason } : {}) }
}

export function label(caller: string): string {
  return caller === 'none' ? 'no token' : caller === 'malformed' ? 'malformed token' : caller === 'other customer' ? "another customer's token" : `${caller} token`
}

/**
 * Each caller is refused (401/403) or let through as the endpoint's access class says. A restricted endpoint is
 * probed with a request its admitted caller gets a success for (access-probes.ts), and the others' answers are
 * read against that success (lib/spec/admission.ts, `judgeAccess`); an anonymous one with placeholder values.
 */
export async function access(row: EndpointRow, session: Session): Promise<Verdict> {
  const rules = [ACCESS_RULES[row.access]]
  let cells: AccessCell<NotJudgedReason>[]
  let exchanges
  let witness: string
  let unbuilt: AccessProbes['unbuilt']
  if (row.access === 'anon') {
    const probes = await Promise.all(ANON_REQUESTS.map((request) => probeOne(session, row, request)))
    cells = probes.map((p, i) => cellOf(session, ACCESS_CALLERS[i]!, ADMISSION.anon[ACCESS_CALLERS[i]!], p))
    exchanges = exchangesOf(...probes)
    witness = 'none'
  } else {
    const p = await accessProbes(session, row)
    unbuilt = p.unbuilt
    const sent = [...p.probes].filter(([caller]) => caller !== 'limited admin')
    cells = sent.map(([caller, probe]) => cellOf(session, caller, expectedOf(row, caller), probe))
    const probes = sent.map(([, probe]) => probe)
    if (row.access === 'self' && unbuilt === undefined && row.method === 'GET') {
      // "an admin token also works": the admin is no witness here (a `mine` path names the customer's own data),
      // so its placeholder probe only has to be let through — another 4xx is an admitted caller's data refused.
      // Not for a write: an admin's `{}` on a `mine` path may make a cart nobody owns (a real shop did), and a 4xx
      // about the data would be all it could show.
      const admin = await probe(session, row, 'admin', session.seed.storeCode)
      cells.push(cellOf(session, 'admin', ADMISSION.self.admin, admin))
      probes.push(admin)
    }
    exchanges = exchangesOf(...probes)
    witness = p.witness
  }
  const judged = judgeAccess(cells, witness, label)
  const matrix = Object.fromEntries(judged.cells.map((c) => [c.caller, { expected: c.expected, seen: c.seen, answer: c.answer, ok: c.ok } satisfies AccessMatrixCell]))
  // Placeholder values (no valid request): said in the message, and an undecided cell is left for that reason.
  const placeholder = unbuilt === undefined ? '' : ` (probed with placeholder values: ${unbuilt.message})`
  const details = { accessClass: row.access, witness, witnessed: judged.cells.some((c) => c.caller === witness && c.seen === 'accepted') && unbuilt === undefined, matrix }
  if (unbuilt !== undefined) exchanges = [...unbuilt.exchanges, ...exchanges]
  // A cell not sent says why itself (no customer token); an answer a placeholder could not decide is for want of a valid request.
  const undecided = judged.reason === undefined || judged.reason === 'target-refused' || judged.reason === 'unusable-answer'
  const reason = (undecided ? (unbuilt?.reason ?? judged.reason) : judged.reason) ?? 'unusable-answer'
  if (judged.status === 'not judged') return { status: 'skipped', message: `${judged.message}${placeholder}`, exchanges, details, rules, reason: reason as NotJudgedReason }
  return { status: judged.status, message: `${row.access} endpoint: ${judged.message}${placeholder}`, exchanges, details, rules }
}

/** What the spec's class says a caller of the valid request gets; another customer naming what is not theirs is refused. */
function expectedOf(row: EndpointRow, caller: AccessProbeCaller): Admission {
  if (caller === 'other customer') return 'refuse'
  if (caller === 'limited admin') return 'not stated'
  return ADMISSION[row.access][caller]
}

export const accessCheck: Check = {
  name: 'access',
  description: 'Each caller is refused or let through as the endpoint\'s access class says.',
  spec: ['Authentication 1–4', 'Endpoints (access marks)'],
  rules: Object.values(ACCESS_RULES),
  appliesTo: () => true,
  // A restricted endpoint's probes are a valid request made of the run's own data (known only as the run goes):
  // --dry-run describes them; an anonymous endpoint's are placeholders.
  requests: (row) => (row.access === 'anon' ? ANON_REQUESTS : []),
  run: access,
}
