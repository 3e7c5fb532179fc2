/**
 * A server error (5xx) as the judges read it. The spec states no rule about one ("HTTP status code per error case:
 * not shown"), and most of the requests the suite sends are its own reading of bodies the spec does not table: a
 * 5xx may be the suite's stale call as well as the shop's fault. So a server error is listed by the run, and read
 * only for what it shows: that the shop's application answered at that method and path (the route is served), or
 * — from a gateway or a shop that is down — nothing at all.
 */
import type { Answer } from './request.ts'
import { describeAnswer } from './answer-text.ts'

/**
 * What a 5xx says of the endpoint:
 * - `application`: the shop's own code failed while serving it (500 — the platform's `{"message": "Internal Error.
 *   … Report ID: webapi-…"}` or a plain-text body —, and any other 5xx but those below): the route is served;
 * - `not-implemented` (501): the server says it does not implement the method there, which is neither the target's
 *   no-route answer nor an answer of the endpoint's;
 * - `gateway` (502, 504): a proxy in front of the shop got no answer, or none in time, from it;
 * - `unavailable` (503): the shop is down or in maintenance (the platform's maintenance mode answers 503).
 * Only `application` shows anything about the endpoint.
 */
type ServerErrorKind = 'application' | 'not-implemented' | 'gateway' | 'unavailable'

interface ServerError {
  kind: ServerErrorKind
  status: number
  /** The id under which the shop logged it (`webapi-6b0bb8ac94d3c`), where its answer names one. */
  reportId?: string
  /** How messages say it: `a server error (500 "Internal Error. … Report ID: webapi-6b0bb8ac94d3c")`. */
  text: string
}

const KINDS: Readonly<Record<number, Exclude<ServerErrorKind, 'application'>>> = {
  501: 'not-implemented',
  502: 'gateway',
  503: 'unavailable',
  504: 'gateway',
}

const WORDS: Readonly<Record<ServerErrorKind, string>> = {
  application: 'a server error',
  'not-implemented': 'a "not implemented" server error',
  gateway: 'a gateway error (a proxy in front of the shop got no answer from it)',
  unavailable: 'a "service unavailable" error (the shop down or in maintenance)',
}

/** The platform's report id in an error's text (`Report ID: webapi-6b0bb8ac94d3c`), or undefined. */
export function reportIdOf(text: string): string | undefined {
  return /Report ID:\s*([A-Za-z0-9_-]+)/.exec(text)?.[1]
}

/** The answer read as a server error; undefined when it is none (no answer, or a status below 500). */
export function serverErrorOf(answer: Pick<Answer, 'status' | 'body' | 'text'> | undefined): ServerError | undefined {
  if (answer === undefined || answer.status < 500 || answer.status > 599) return undefined
  const kind = KINDS[answer.status] ?? 'application'
  const reportId = reportIdOf(answer.text)
  const quoted = describeAnswer(answer)
  // The id is what a vendor looks up in the shop's log: said even where the quoted text was cut short before it.
  const id = reportId !== undefined && !quoted.includes(reportId) ? `, report ID ${reportId}` : ''
  return {
    kind,
    status: answer.status,
    ...(reportId !== undefined ? { reportId } : {}),
    text: `${WORDS[kind]} (${quoted}${id})`,
  }
}

/** Where the run's listing of its server errors is, as messages point to it. */
export const LISTED = 'the run lists it with its server errors'
