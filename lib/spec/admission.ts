/**
 * The spec's access classes as what each caller gets (Authentication 2–4), and how one answer is read against
 * that: a refusal, a success, another 4xx, the no-route answer, or an answer that says nothing about access.
 * Pure: the spec's access check, the ACL and token checks, and the judges of a shop's own extension operations
 * (lib/schema/judge.ts) all read answers this one way.
 */
import type { AccessClass } from './types.ts'

/** The four callers of the access rules: no Authorization header, a Bearer value no target issued, a customer token, an admin token. */
export type AccessCaller = 'none' | 'malformed' | 'customer' | 'admin'

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

/** The caller an access class admits first: the one whose answer shows the endpoint is there. */
export function admittedCaller(access: AccessClass): AccessCaller {
  return access === 'admin' ? 'admin' : access === 'self' ? 'customer' : 'none'
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
export interface AnswerLike {
  status: number
  json: boolean
  text: string
  headers?: Readonly<Record<string, string>>
}

/** The platform answers 401 for every access refusal; 403 is the other status a refusal may have (platform conventions, Errors). */
export function isRefusal(status: number): boolean {
  return status === 401 || status === 403
}

/**
 * Why an answer tells nothing about who may call an endpoint or under which store code (undefined when it
 * does): no answer at all, a server error, a rate limit, or a body that is not the JSON the spec's payloads
 * are ("Payloads are JSON"). Such an answer is the route check's failure, never an access or store-code one.
 * A refusal and the no-route answer are judged by their status, whatever their body. `quoted` is how the
 * outcome is quoted in messages.
 */
export function unusableAnswer(answer: AnswerLike | undefined, quoted: string): string | undefined {
  if (answer === undefined) return `no answer (${quoted})`
  if (answer.status >= 500) return `a server error (${quoted})`
  if (answer.status === 429) return `a rate limit (${quoted})`
  if (!answer.json && answer.status !== 204 && !isRefusal(answer.status)) {
    return answer.text.trim() === '' ? `an empty body (${answer.status})` : `a body that is not JSON (${answer.status} ${answer.headers?.['content-type'] ?? 'without a content type'})`
  }
  return undefined
}

/** What a sent request's answer (absent: none came) says about access; `noRoute`: it is the target's no-route answer. */
export function seenOfAnswer(answer: AnswerLike | undefined, noRoute: boolean): Seen {
  if (answer !== undefined && noRoute) return 'no-route'
  if (answer !== undefined && isRefusal(answer.status)) return 'refused'
  if (answer === undefined || unusableAnswer(answer, '') !== undefined) return 'no usable answer'
  return answer.status < 400 ? 'accepted' : 'other 4xx'
}

/** true: as the access class says; false: against it; null: not judged (not stated, not sent, or not readable). */
export function judgeCell(expected: Admission, seen: Seen): boolean | null {
  if (expected === 'not stated' || seen === 'not sent' || seen === 'no usable answer') return null
  // A refusal in a status the spec does not show (another 4xx, the no-route answer) is not read as "let through".
  if (expected === 'refuse') return seen === 'refused' ? true : seen === 'accepted' ? false : null
  return seen === 'accepted' || seen === 'other 4xx'
}
