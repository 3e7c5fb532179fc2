/**
 * The spec's access classes as what each caller gets (Authentication 2–4), and how one answer is read against
 * that: a refusal, a success, another 4xx, the no-route answer, or an answer that says nothing about access.
 * Pure: the spec's access check, the ACL and token checks, and the judges of a shop's own extension operations
 * (lib/schema/judge.ts) all read answers this one way.
 */
import type { AccessClass } from './types.ts'

/**
 * The four callers of the access rules: no Authorization header, a Bearer value no target issued, a customer token, an
 * admin token.
 */
type AccessCaller = 'none' | 'malformed' | 'customer' | 'admin'

export const ACCESS_CALLERS: readonly AccessCaller[] = ['none', 'malformed', 'customer', 'admin']

export type Admission = 'refuse' | 'accept' | 'not stated'

/**
 * Authentication 2–4: admin endpoints take only an admin token; self endpoints a customer or an admin token
 * (so neither no token nor a token that is neither); anonymous ones need none — the spec does not say what
 * a token does there, so those cells are not stated.
 */
export const ADMISSION: Readonly<Record<AccessClass, Readonly<Record<AccessCaller, Admission>>>> = {
  admin: { none: 'refuse', malformed: 'refuse', customer: 'refuse', admin: 'accept' },
  self: { none: 'refuse', malformed: 'refuse', customer: 'accept', admin: 'accept' },
  anon: { none: 'accept', malformed: 'not stated', customer: 'not stated', admin: 'not stated' },
}

/** A caller as messages name it: `no token`, `malformed token`, `another customer's token`, `admin token`. */
export function describeCaller(caller: string): string {
  if (caller === 'none') return 'no token'
  if (caller === 'malformed') return 'malformed token'
  if (caller === 'other customer') return "another customer's token"
  return `${caller} token`
}

const ADMITTED_FIRST: Readonly<Record<AccessClass, AccessCaller>> = { admin: 'admin', self: 'customer', anon: 'none' }

/** The caller an access class admits first: the one whose answer shows the endpoint is there. */
export function admittedCaller(access: AccessClass): AccessCaller {
  return ADMITTED_FIRST[access]
}

/**
 * What a caller's answer says about access. `refused`: 401/403. `accepted`: a success (2xx/3xx).
 * `other 4xx`: an error that is neither — the spec does not show the status of a refusal (Errors 4), so for a
 * caller the spec refuses it is not read as "let through" (it may be a refusal in another status), while for
 * a caller the spec admits it is (the placeholder data, not the token, was refused). `no usable answer`:
 * no answer, a 5xx, a rate limit or a body that is not JSON — nothing about access can be read from it.
 */
export type Seen = 'not sent' | 'no-route' | 'refused' | 'accepted' | 'other 4xx' | 'no usable answer'

/** The parts of an answer the readings below look at. */
interface AnswerLike {
  status: number
  json: boolean
  text: string
  headers?: Readonly<Record<string, string>>
}

/**
 * The platform answers 401 for every access refusal; 403 is the other status a refusal may have (platform conventions,
 * Errors).
 */
export function isRefusal(status: number): boolean {
  return status === 401 || status === 403
}

/**
 * Why an answer tells nothing about who may call an endpoint or under which store code (undefined when it
 * does): no answer at all, a server error, a rate limit, or a body that is not the JSON the spec's payloads
 * are ("Payloads are JSON"). Never an access or store-code failure: a body that is not JSON is the route check's,
 * a server error no rule's (the run lists it; lib/shop/server-error.ts).
 * A refusal and the no-route answer are judged by their status, whatever their body. `quoted` is how the
 * outcome is quoted in messages.
 */
export function unusableAnswer(answer: AnswerLike | undefined, quoted: string): string | undefined {
  if (answer === undefined) return `no answer (${quoted})`
  if (answer.status >= 500) return `a server error (${quoted})`
  if (answer.status === 429) return `a rate limit (${quoted})`
  if (!answer.json && answer.status !== 204 && !isRefusal(answer.status)) {
    return answer.text.trim() === ''
      ? `an empty body (${answer.status})`
      : `a body that is not JSON (${answer.status} ${answer.headers?.['content-type'] ?? 'without a content type'})`
  }
  return undefined
}

/**
 * What a sent request's answer (absent: none came) says about access; `noRoute`: it is the target's no-route answer.
 */
export function seenOfAnswer(answer: AnswerLike | undefined, noRoute: boolean): Seen {
  if (answer !== undefined && noRoute) return 'no-route'
  if (answer !== undefined && isRefusal(answer.status)) return 'refused'
  if (answer === undefined || unusableAnswer(answer, '') !== undefined) return 'no usable answer'
  return answer.status < 400 ? 'accepted' : 'other 4xx'
}

/**
 * true: as the access class says; false: against it; null: not judged (not stated, not sent, or not readable).
 * A success to a caller the class refuses is a let-through on its own evidence, whatever the admitted caller got: the
 * shop did for that caller what only the admitted one may have done (a real shop opened to every caller assigned a
 * product to a website for the callers without a token, and the admin, asked last, got 400 "Could not assign" — the
 * others had already done it). `witness`, what the admitted caller got for the same request, decides only how an
 * answer that is neither a success nor a refusal reads: `success` — another 4xx or the no-route answer is then the
 * shop refusing (or hiding the resource from) that caller; `not sent` (a write withheld for safety) or `other` (no
 * success) — it may be about the request's data, so it is not read.
 */
export function judgeCell(
  expected: Admission,
  seen: Seen,
  witness: 'success' | 'not sent' | 'other' = 'not sent',
): boolean | null {
  if (expected === 'not stated' || seen === 'not sent' || seen === 'no usable answer') return null
  if (expected === 'refuse') {
    if (seen === 'refused') return true
    if (seen === 'accepted') return false
    return witness === 'success' ? true : null
  }
  return seen === 'accepted' || seen === 'other 4xx'
}

/** One caller's answer to an access probe, as the judgement reads it. */
export interface AccessCell<R extends string = string> {
  /** Who called: one of the four, the limited admin, or another customer than the resource's owner. */
  caller: string
  expected: Admission
  seen: Seen
  /** How messages quote the answer (`401 "The consumer isn't …"`, `not sent (read-only mode …)`). */
  answer: string
  /** Set when the cell was not sent: why, as a report counts it (lib/results/verdict.ts's codes). */
  reason?: R
}

/** A cell's reasons that say it got no answer at all (lib/results/verdict.ts's UnansweredReason). */
const UNANSWERED = new Set(['timeout', 'target-gone', 'no-answer', 'deadlock'])

/** The reasons the judgement itself gives for leaving access unjudged (lib/results/verdict.ts names them). */
type AccessReason = 'route-missing' | 'no-answer' | 'unusable-answer' | 'target-refused'

/**
 * How a judgement's messages name things: each caller, the check that judges the route, what states the access class.
 */
interface AccessWords {
  who?: (caller: string) => string
  /** `route`; `extension-route` for a shop's own operation. */
  routeCheck?: string
  /** `the spec`; `the class` for the class a shop's schema declares. */
  authority?: string
}

interface AccessJudgement<R extends string = string> {
  status: 'passed' | 'failed' | 'not judged'
  message: string
  reason?: R | AccessReason
  /** Each cell with its judgement: true as the class says, false against it, null not judged. */
  cells: (AccessCell<R> & { ok: boolean | null })[]
}

/** What the witness's answer lets the other cells be read against (`undefined`: no witness among the cells). */
function witnessReading(seen: Seen | undefined): 'success' | 'not sent' | 'other' {
  if (seen === undefined || seen === 'not sent') return 'not sent'
  return seen === 'accepted' ? 'success' : 'other'
}

/**
 * The one access judgement (Authentication 2–4), over recorded answers: the spec's access check, the acl check and
 * the judges of a shop's extension operations all call it. `witness` names the caller the class admits, whose
 * answer to the same request the others are read against:
 * - let through (failed): a caller the class refuses got a success, whatever the witness got;
 * - refused (passed): 401/403, or any other answer that is not a success where the witness got a success (a shop
 *   may hide a resource from an unauthorised caller with 404);
 * - not judged: what is left — only when the witness got no success (the shop refused its request, a 5xx, no
 *   answer), or a cell got no usable answer. A 5xx or a timeout is never "let through".
 * `words` name the callers, the route check and what states the class in messages.
 */
export function judgeAccess<R extends string>(
  cells: readonly AccessCell<R>[],
  witness: string,
  words: AccessWords = {},
): AccessJudgement<R> {
  const { who = describeCaller, routeCheck = 'route', authority = 'the spec' } = words
  const w = cells.find((c) => c.caller === witness)
  const reading = witnessReading(w?.seen)
  const judged = cells.map((c) => ({ ...c, ok: judgeCell(c.expected, c.seen, reading) }))
  const sent = judged.filter((c) => c.seen !== 'not sent')
  const verdict = (
    status: AccessJudgement['status'],
    message: string,
    reason?: R | AccessReason,
  ): AccessJudgement<R> => ({ status, message, cells: judged, ...(reason !== undefined ? { reason } : {}) })
  if (sent.length === 0) {
    const first = w ?? judged.find((c) => c.expected !== 'not stated') ?? judged[0]
    return verdict(
      'not judged',
      `not judged: ${first?.answer ?? 'nothing was sent'}`,
      first?.reason ?? 'unusable-answer',
    )
  }
  if (sent.every((c) => c.seen === 'no-route'))
    return verdict(
      'not judged',
      `not judged: the target answered no-route to every caller (see the ${routeCheck} check)`,
      'route-missing',
    )
  const wrong = judged.filter((c) => c.ok === false)
  if (wrong.length > 0) return verdict('failed', againstTheClass(wrong, w, reading, who, authority))
  const open = judged.filter((c) => c.ok === null && c.expected !== 'not stated')
  if (open.length > 0) {
    const { message, reason } = leftOpen(open, w, reading, who, routeCheck)
    return verdict('not judged', message, reason)
  }
  const said = judged
    .filter((c) => c.ok === true)
    .map((c) => `${who(c.caller)} ${cellWords(c)} (${c.answer.split(' ')[0]})`)
  return verdict('passed', said.join(', '))
}

/**
 * The failure: each cell against the class, and — a let-through the admitted caller's own answer does not match (its
 * request used up by the others' successes) — what the witness then got.
 */
function againstTheClass(
  wrong: readonly AccessCell[],
  w: AccessCell | undefined,
  reading: ReturnType<typeof witnessReading>,
  who: (caller: string) => string,
  authority: string,
): string {
  const what = wrong.map(
    (c) =>
      `${who(c.caller)} ${c.seen === 'accepted' ? 'let through' : c.seen} (${c.answer}) where ${authority} says ${c.expected}`,
  )
  const after =
    w !== undefined && reading === 'other' && wrong.some((c) => c.seen === 'accepted')
      ? [`the caller ${authority} admits (${who(w.caller)}) then got ${w.answer}`]
      : []
  return [...what, ...after].join('; ')
}

/**
 * Cells the class decides but no answer did: the witness's unusable answer says why for all of them; else each
 * cell's own words, after the witness's refusal of the same request where it was refused, and the reason of a cell
 * not sent or unanswered first.
 */
function leftOpen<R extends string>(
  open: readonly AccessCell<R>[],
  w: AccessCell<R> | undefined,
  reading: ReturnType<typeof witnessReading>,
  who: (caller: string) => string,
  routeCheck: string,
): { message: string; reason: R | AccessReason } {
  if (w !== undefined && w.seen === 'no usable answer') {
    return {
      message: `not judged: the caller the spec admits (${who(w.caller)}) got ${w.answer}, so no answer here is about access (see the ${routeCheck} check)`,
      reason: w.reason ?? (/^(no answer|not sent)/.test(w.answer) ? 'no-answer' : 'unusable-answer'),
    }
  }
  const refusedRequest =
    w !== undefined && reading === 'other'
      ? `the caller the spec admits (${who(w.caller)}) got no success for the same request (${w.answer}), so `
      : ''
  // A cell not sent, or one that got no answer (a timeout): its own reason, not "no usable answer".
  const unanswered =
    open.find((c) => c.seen === 'not sent') ??
    open.find((c) => c.seen === 'no usable answer' && UNANSWERED.has(String(c.reason)))
  return {
    message: `not fully judged: ${refusedRequest}${open.map((c) => `${who(c.caller)} ${describeOpenCell(c)}`).join('; ')}`,
    reason: unanswered?.reason ?? (refusedRequest !== '' ? 'target-refused' : 'unusable-answer'),
  }
}

/**
 * What a cell judged as the class says got: refused, let through (a success), or — an admitted caller that got
 * another 4xx, which only had to pass the door — not refused: "let through (404)" read as a success it never got.
 */
function cellWords(c: Pick<AccessCell, 'expected' | 'seen'>): string {
  if (c.expected === 'refuse') return 'refused'
  return c.seen === 'accepted' ? 'let through' : 'not refused'
}

/** Why a cell the spec decides was left unjudged, in words. */
export function describeOpenCell(cell: Pick<AccessCell, 'seen' | 'answer'>): string {
  if (cell.seen === 'other 4xx' || cell.seen === 'no-route') {
    return `answered ${cell.answer}: neither a refusal (401/403) nor a success, and the spec does not show the status of a refusal`
  }
  if (cell.seen === 'no usable answer') return `got no usable answer (${cell.answer})`
  return cell.answer
}
