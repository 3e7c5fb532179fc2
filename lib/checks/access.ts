import type { EndpointRow } from '../spec/types.ts'
import { rowId } from '../spec/catalog/index.ts'
import { defined } from '../base/defined.ts'
import { isMineWrite, MINE_ADMIN_REQUESTS } from '../setup/requests/mine-admin.ts'
import {
  ACCESS_CALLERS,
  ADMISSION,
  admittedCaller,
  describeCaller,
  judgeAccess,
  seenOfAnswer,
  type AccessCell,
  type Admission,
  type Seen,
} from '../spec/admission.ts'
import { ACCESS_RULES } from '../spec/rules.ts'
import { unanswered } from '../shop/answer-text.ts'
import { LISTED, serverErrorOf } from '../shop/server-error.ts'
import type { PlannedCall, Probe, ProbeAnswers, SequenceCaller } from '../shop/probe.ts'
import { answerTo } from '../shop/probe.ts'
import { concretePath, exchangesOf, placeholder, quoteAnswer, unusable } from './probe.ts'
import { accessSequence } from './access-sequence.ts'
import { basisOf, notSent, operationAnswer, operationAnswers, operationOf } from './extension-probes.ts'
import type { NotJudgedReason, Verdict } from '../results/verdict.ts'
import type { ProbeCheck } from './types.ts'
import { probeCheck } from './probe-check.ts'

interface AccessMatrixCell {
  /** What the spec's access class says this caller gets. */
  expected: Admission
  seen: Seen
  answer: string
  /** true: as the spec says; false: against it; null: not judged (not stated, not sent, or not readable). */
  ok: boolean | null
}

export function seenOf(p: Probe): Seen {
  if (p.unavailable !== undefined) return 'not sent'
  return seenOfAnswer(p.answer, p.answer !== undefined && p.noRoute === true)
}

/** A probe as a cell of the judgement. */
export function cellOf(caller: string, expected: Admission, p: Probe): AccessCell<NotJudgedReason> {
  const seen = seenOf(p)
  // An answer that says nothing about access is quoted as what it is: no answer, a server error (its report id
  // with it, which the run's listing of server errors names too), not JSON.
  const error = seen === 'no usable answer' ? serverErrorOf(p.answer) : undefined
  const answer = seen === 'no usable answer' ? (error?.text ?? unusable(p) ?? quoteAnswer(p)) : quoteAnswer(p)
  const reason = p.unavailableReason ?? unjudgedReason(p, error !== undefined)
  return { caller, expected, seen, answer, ...(reason !== undefined ? { reason } : {}) }
}

/** Why a sent probe's answer says nothing about access (undefined: it may): none came, or a server error. */
function unjudgedReason(p: Probe, serverError: boolean): NotJudgedReason | undefined {
  if (p.unavailable === undefined && p.answer === undefined) return unanswered(p).reason
  return serverError ? 'server-error' : undefined
}

/**
 * The reason of a judgement that a server error left open (undefined: none did): the admitted caller's — no success,
 * so no answer is about access — or a caller's whose answer, a 5xx, is neither a refusal nor a success.
 */
export function serverErrorReason(
  judged: { status: string; cells: readonly (AccessCell<NotJudgedReason> & { ok: boolean | null })[] },
  witness: string,
): 'server-error' | undefined {
  if (judged.status !== 'not judged') return undefined
  const erred = (c: AccessCell<NotJudgedReason>) => c.reason === 'server-error'
  return judged.cells.some(
    (c) => (c.caller === witness && erred(c)) || (c.ok === null && c.expected !== 'not stated' && erred(c)),
  )
    ? 'server-error'
    : undefined
}

/**
 * Each caller is refused (401/403) or let through as the endpoint's access class says. A restricted endpoint is
 * probed with a request its admitted caller gets a success for (access-sequence.ts), and the others' answers are
 * read against that success (lib/spec/admission.ts, `judgeAccess`); an anonymous one with placeholder values, as is
 * a shop's extension operation, against the class its schema declares (a write withheld from a caller the class
 * admits is no cell: the refusals speak for themselves).
 */
export function judgeAccessCheck(row: EndpointRow, answers: ProbeAnswers): Verdict {
  const op = operationOf(row)
  const cls = op === undefined ? row.access : op.declaredAccess
  const rules = cls === undefined ? [] : [ACCESS_RULES[cls]]
  const extension =
    op === undefined
      ? undefined
      : { basis: basisOf(row, true), ...(answers.plan.withheld?.length ? { withheld: answers.plan.withheld } : {}) }
  const sent = op === undefined ? undefined : operationAnswers(row, answers).filter((a) => a.request.store === 'first')
  if (cls === undefined || sent?.length === 0) {
    const classUnknown = cls === undefined ? (op?.accessUnknown ?? 'the declared access class is unknown') : undefined
    return nothingToJudge(classUnknown, sent ?? [], answers, { extension, rules })
  }
  const { cells, probes, witness, unbuilt } = cellsOf(row, cls, answers)
  const judged = judgeAccess(
    cells,
    witness,
    op === undefined ? {} : { routeCheck: 'extension-route', authority: 'the class' },
  )
  // Placeholder values (no valid request): said in the message, and an undecided cell is left for that reason.
  const placeholders = unbuilt === undefined ? '' : ` (probed with placeholder values: ${unbuilt.message})`
  const common = {
    exchanges: [...(unbuilt?.exchanges ?? []), ...exchangesOf(...probes)],
    details: extension ?? matrixDetails(cls, witness, judged, unbuilt),
    rules,
  }
  if (judged.status === 'not judged') {
    const { message, reason } = notJudged(judged, witness, unbuilt, op === undefined ? 'the spec' : 'the class')
    return { status: 'skipped', message: `${message}${placeholders}`, ...common, reason }
  }
  const what = op === undefined ? `${cls} endpoint` : `declared ${cls}`
  const scope = judged.status === 'passed' ? withheldScope(answers.plan.withheld ?? [], cells) : ''
  return { status: judged.status, message: `${what}: ${judged.message}${placeholders}${scope}`, ...common }
}

type AccessJudged = ReturnType<typeof judgeAccess<NotJudgedReason>>
type Unbuilt = ReturnType<typeof cellsOf>['unbuilt']

/**
 * No cell to judge: the class an extension operation declares is unknown (`classUnknown` says why), or nothing was
 * sent to it under the configured store code. The answers that came are the evidence, the first one's reason the
 * verdict's.
 */
function nothingToJudge(
  classUnknown: string | undefined,
  sent: readonly { probe: Probe }[],
  answers: ProbeAnswers,
  { extension, rules }: { extension: Verdict['details']; rules: Verdict['rules'] },
): Verdict {
  const evidence = sent.map((a) => a.probe)
  const message = classUnknown !== undefined ? `not judged: ${classUnknown}` : notSent(answers.plan, false).message
  const reason =
    evidence.map((p) => cellOf(p.caller, 'not stated', p).reason).find((r) => r !== undefined) ??
    (evidence.length > 0 ? 'unusable-answer' : notSent(answers.plan, false).reason)
  return { status: 'skipped', message, exchanges: exchangesOf(...evidence), details: extension, rules, reason }
}

/** What a spec endpoint's verdict records: its class, the witness and whether it got a success, each caller's cell. */
function matrixDetails(
  cls: EndpointRow['access'],
  witness: string,
  judged: AccessJudged,
  unbuilt: Unbuilt,
): Record<string, unknown> {
  const matrix = Object.fromEntries(
    judged.cells.map((c) => [
      c.caller,
      { expected: c.expected, seen: c.seen, answer: c.answer, ok: c.ok } satisfies AccessMatrixCell,
    ]),
  )
  return {
    accessClass: cls,
    witness,
    witnessed: judged.cells.some((c) => c.caller === witness && c.seen === 'accepted') && unbuilt === undefined,
    matrix,
  }
}

/**
 * A judgement left open: its message (the admitted caller's server error said as one) and its reason. A cell not sent
 * says why itself (no customer token); an answer a placeholder could not decide is for want of a valid request; a
 * server error, the admitted caller's above all, is said as one (the run lists it with its report id).
 */
function notJudged(
  judged: AccessJudged,
  witness: string,
  unbuilt: Unbuilt,
  authority: string,
): { message: string; reason: NotJudgedReason } {
  const undecided =
    judged.reason === undefined || judged.reason === 'target-refused' || judged.reason === 'unusable-answer'
  const reason =
    serverErrorReason(judged, witness) ??
    (undecided ? (unbuilt?.reason ?? judged.reason) : judged.reason) ??
    'unusable-answer'
  const w = judged.cells.find((c) => c.caller === witness && c.reason === 'server-error')
  const message =
    w === undefined
      ? judged.message
      : `not judged: the caller ${authority} admits (${describeCaller(w.caller)}) got ${w.answer}, not the success the others' answers are read against, so no answer here is about access; ${LISTED}`
  return { message, reason }
}

/** What an extension operation's write was not sent to, and why: the verdict says what it did not judge. */
function withheldScope(withheld: NonNullable<ProbeAnswers['plan']['withheld']>, cells: AccessCell[]): string {
  const held = withheld.filter((w) => !cells.some((c) => c.caller === w.caller))
  return [...new Set(held.map((w) => w.why))]
    .map(
      (why) =>
        `; not sent to ${held
          .filter((w) => w.why === why)
          .map((w) => describeCaller(w.caller))
          .join(', ')}: ${why}`,
    )
    .join('')
}

/**
 * The cells the judgement reads: each caller's answer, what the class says it gets, and whose success is the witness.
 */
function cellsOf(
  row: EndpointRow,
  cls: EndpointRow['access'],
  answers: ProbeAnswers,
): {
  cells: AccessCell<NotJudgedReason>[]
  probes: Probe[]
  witness: string
  unbuilt?: { message: string; reason: NotJudgedReason; exchanges: Verdict['exchanges'] }
} {
  const op = operationOf(row)
  if (op !== undefined || row.access === 'anon') {
    const sent = ACCESS_CALLERS.flatMap((caller) => {
      const p =
        op !== undefined
          ? operationAnswer(row, answers, caller, 'first')
          : answerTo(answers, row.method, concretePath(row), { caller, store: 'first' })
      return p === undefined ? [] : [{ caller, p }]
    })
    return {
      cells: sent.map(({ caller, p }) => cellOf(caller, ADMISSION[cls][caller], p)),
      probes: sent.map((s) => s.p),
      witness: admittedCaller(cls),
    }
  }
  const s = defined(answers.sequence, `the answers to the valid request of ${rowId(row)} (its access plan sends one)`)
  const sent = [...s.probes].filter(([caller]) => caller !== 'limited admin')
  const cells = sent.map(([caller, probe]) => cellOf(caller, expectedOf(row, caller), probe))
  const probes = sent.map(([, probe]) => probe)
  const call = adminCallOf(row)
  if (call !== undefined && !s.probes.has('admin')) {
    // "an admin token also works": the admin is no witness here (a `mine` path names the customer's own data), so
    // its call only has to be let through — another 4xx is an admitted caller's data refused, a 401/403 the failure.
    const admin = answerTo(answers, call.call.method, call.call.path, call.request)
    if (admin !== undefined) {
      cells.push(cellOf('admin', ADMISSION.self.admin, admin))
      probes.push(admin)
    }
  }
  return { cells, probes, witness: s.witness, ...(s.unbuilt !== undefined ? { unbuilt: s.unbuilt } : {}) }
}

/**
 * The admin's call at a self endpoint, which only has to be let through: a read's placeholder call; at a `mine`
 * write, a request whose data the shop refuses, so that it can make nothing (lib/setup/requests/mine-admin.ts). None
 * at another self write (it would name someone else's tokens or cart).
 */
function adminCallOf(row: EndpointRow): PlannedCall | undefined {
  if (row.access !== 'self') return undefined
  if (row.method === 'GET') return placeholder(row, 'admin')
  const request = isMineWrite(row) ? MINE_ADMIN_REQUESTS[rowId(row)] : undefined
  if (request === undefined) return undefined
  return {
    request: { caller: 'admin', store: 'first' },
    call: {
      method: row.method,
      path: concretePath(row),
      body: request.body,
      ...(request.creates !== undefined ? { creates: request.creates } : {}),
    },
  }
}

/**
 * What the spec's class says a caller of the valid request gets; another customer naming what is not theirs is
 * refused.
 */
function expectedOf(row: EndpointRow, caller: SequenceCaller): Admission {
  if (caller === 'other customer') return 'refuse'
  if (caller === 'limited admin') return 'not stated'
  return ADMISSION[row.access][caller]
}

export const accessCheck: ProbeCheck = probeCheck({
  name: 'access',
  description: "Each caller is refused or let through as the endpoint's access class says.",
  spec: ['Authentication 1–4', 'Endpoints (access marks)'],
  rules: [ACCESS_RULES.admin, ACCESS_RULES.self, ACCESS_RULES.anon],
  appliesTo: () => true,
  // A restricted endpoint's probes are its valid request made of the run's own data (a self endpoint's admin then
  // gets its own call); an anonymous endpoint's are placeholder calls for every caller.
  probes: (row, settings) => {
    const sequence = accessSequence(row, settings)
    if (sequence === undefined) return { calls: ACCESS_CALLERS.map((caller) => placeholder(row, caller)) }
    const admin = adminCallOf(row)
    return { calls: [], sequence, ...(admin !== undefined ? { after: [admin] } : {}) }
  },
  judge: judgeAccessCheck,
})
