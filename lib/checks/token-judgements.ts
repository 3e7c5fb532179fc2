/**
 * What the tokens check decides, without the network (batch-partial/judgements.ts is the model), so each is proven
 * on a real instance's recorded answers: an answer to wrong credentials, and the revocation's calls — the
 * customer's token before the revoke, the revoke, the token after it, and a new token after it.
 */
import { defined } from '../base/defined.ts'
import { describeOpenCell, judgeCell, type Admission } from '../spec/admission.ts'
import type { Answer, Outcome } from '../shop/request.ts'
import type { Probe } from '../shop/probe.ts'
import { describeOutcome, unanswered } from '../shop/answer-text.ts'
import { serverErrorOf } from '../shop/server-error.ts'
import type { NotJudgedReason, Status } from '../results/verdict.ts'
import { seenOf } from './access.ts'
import { quoteAnswer } from './probe.ts'

/**
 * How the run's evidence tags the tokens check's calls (`_probe`): `tokens: ` and what the call is (`judge --har` reads
 * them).
 */
export const TOKENS_PROBE = 'tokens: '

/** The self endpoint a token is tried on: every customer may read itself. */
export const ME = '/V1/customers/me'

/** One call with wrong credentials, judged; `token` is what it issued, for the run to keep secret. */
interface WrongCredentialsJudgement {
  status: Status
  text: string
  warning?: string
  reason?: NotJudgedReason
  token?: string
}

/**
 * What an answer to wrong credentials says. A token in it fails (the body, or a field named like a token, as a
 * non-empty string: the spec does not show the token's form). No token passes: a 4xx as a refusal, any other
 * status with a warning, as the spec does not show a refusal's status (Errors 4). No answer at all is not judged.
 */
export function judgeWrongCredentials(
  what: string,
  outcome: Pick<Outcome, 'answer' | 'failure'>,
): WrongCredentialsJudgement {
  if (outcome.answer === undefined)
    return { status: 'skipped', text: `${what}: ${unanswered(outcome).text}`, reason: unanswered(outcome).reason }
  const answer = outcome.answer
  const token = answer.status < 400 ? tokenIn(answer) : undefined
  if (token !== undefined)
    return {
      status: 'failed',
      text: `${what} got a token (${answer.status}, a string of ${token.length} characters) where tokens are obtained for the caller's credentials`,
      token,
    }
  const described = describeOutcome(outcome)
  if (answer.status >= 400 && answer.status < 500) return { status: 'passed', text: `${what} refused (${described})` }
  return {
    status: 'passed',
    text: `${what} got no token (${described})`,
    warning: `${what} was answered ${answer.status}, not a 4xx: no token came, but the spec does not show how a refusal is answered (Errors 4)`,
  }
}

function tokenIn(answer: Answer): string | undefined {
  if (!answer.json) return undefined
  const body = answer.body
  if (typeof body === 'string') return body.trim() !== '' ? body : undefined
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined
  const named = Object.entries(body).find(
    ([key, value]) => /token/i.test(key) && typeof value === 'string' && value.trim() !== '',
  )
  return named?.[1] as string | undefined
}

/** A new token asked for after the revoke (`issued`: one came) and its use on the self endpoint. */
export interface Renewal {
  when: string
  fresh: Probe
  issued: boolean
  use?: Probe
}

/** The revocation's calls as far as the run got: each is made only while the ones before leave the rule open. */
export interface RevocationCalls {
  before: Probe
  revoke?: Probe
  after?: Probe
  renewals?: readonly Renewal[]
}

export interface RevocationJudgement {
  status: Exclude<Status, 'error'>
  message: string
  reason?: NotJudgedReason
}

/**
 * Authentication 5 on the calls so far, or undefined while the next call is needed: the customer's token works on
 * the self endpoint; revoked, it is refused there, while a token the customer gets after the revoke works. The token
 * before and the new one after are the controls: without them a refusal could be the endpoint's, or a revoke that
 * locked the customer out. A new token refused at once is asked for again (the platform refuses one issued in the
 * revoke's second), and the second is judged.
 */
export function judgeRevocation(calls: RevocationCalls): RevocationJudgement | undefined {
  const notJudged = (message: string, reason: NotJudgedReason): RevocationJudgement => ({
    status: 'skipped',
    message: `not judged: ${message}`,
    reason,
  })
  const { before, revoke, after, renewals = [] } = calls
  if (judgeCell('accept', seenOf(before)) !== true)
    return notJudged(
      `the customer's token was not let through GET ${ME} before the revoke (${quoteAnswer(before)}), so a refusal after it could not show the revoke (see the access check)`,
      unjudged(before),
    )
  if (revoke === undefined) return undefined
  if (revoke.answer === undefined || revoke.answer.status < 200 || revoke.answer.status >= 300)
    return notJudged(
      `the revoke was not accepted (${quoteAnswer(revoke)}), so nothing was revoked to judge (see the route and access checks)`,
      unjudged(revoke),
    )
  if (after === undefined) return undefined
  const revoked = judgeCell('refuse', seenOf(after))
  if (revoked === false)
    return {
      status: 'failed',
      message: `the revoked token was let through GET ${ME} (${quoteAnswer(after)}) after the revoke answered ${quoteAnswer(revoke)}`,
    }
  if (revoked === null)
    return notJudged(
      `after the revoke (${quoteAnswer(revoke)}) the token ${describeOpenCell({ seen: seenOf(after), answer: quoteAnswer(after) })}`,
      unjudged(after),
    )
  const last = renewals.at(-1)
  if (last === undefined) return undefined
  const renewed = renewalOf(last)
  if (renewed.ok === false && renewals.length === 1) return undefined
  if (renewed.ok === false)
    return { status: 'failed', message: `${renewed.text}: the revoke did more than revoke the token` }
  if (renewed.ok === null) return notJudged(renewed.text, renewed.reason ?? 'unusable-answer')
  return {
    status: 'passed',
    message: `the revoked token was refused on GET ${ME} (${quoteAnswer(after)}); ${renewed.text}`,
  }
}

/**
 * Whether a new token works: true, false (refused, or none issued for the customer's own credentials), or null (no
 * usable answer).
 */
function renewalOf(r: Renewal): { ok: boolean | null; text: string; reason?: NotJudgedReason } {
  if (!r.issued || r.use === undefined) {
    const refused = r.fresh.answer !== undefined && (r.fresh.answer.status === 401 || r.fresh.answer.status === 403)
    return {
      ok: refused ? false : null,
      text: `the customer's own credentials got no token ${r.when} (${quoteAnswer(r.fresh)})`,
      ...(refused ? {} : { reason: unjudged(r.fresh) }),
    }
  }
  const ok = judgeCell('accept' satisfies Admission, seenOf(r.use))
  const got = `a token the customer got ${r.when}`
  if (ok === true) {
    const { status } = defined(r.use.answer, 'the answer that let the token through')
    return { ok, text: `${got} was let through GET ${ME} (${status})` }
  }
  if (ok === false) return { ok, text: `${got} was refused on GET ${ME} (${quoteAnswer(r.use)})` }
  return { ok, text: `${got} got no usable answer on GET ${ME} (${quoteAnswer(r.use)})`, reason: unjudged(r.use) }
}

/**
 * Why a call left the revocation unjudged: no answer, a server error (no rule of the spec: the run lists it), or an
 * answer that tells nothing.
 */
function unjudged(p: Probe): NotJudgedReason {
  if (p.answer === undefined) return unanswered(p).reason
  return serverErrorOf(p.answer) !== undefined ? 'server-error' : 'unusable-answer'
}
