import { defined } from '../base/defined.ts'
import { provisionerOf, SetupError, type MadeCustomer } from '../setup/provision.ts'
import { endpointId } from '../spec/catalog/index.ts'
import { TOKEN_RULES } from '../spec/rules.ts'
import type { EndpointRow } from '../spec/types.ts'
import type { Exchange } from '../results/exchange.ts'
import type { Outcome } from '../shop/request.ts'
import type { Session } from '../shop/session.ts'
import type { Probe } from '../shop/probe.ts'
import { readProbe } from '../shop/sender.ts'
import { exchangesOf, quoteAnswer } from './probe.ts'
import {
  judgeRevocation,
  ME,
  TOKENS_PROBE,
  type Renewal,
  type RevocationCalls,
  type RevocationJudgement,
} from './token-judgements.ts'
import type { NotJudgedReason, Verdict } from '../results/verdict.ts'

export const REVOKE = endpointId('POST /V1/integration/customer/revoke-customer-token')

/**
 * How long after the revoke's answer a new token is asked for again when the one asked for at once was refused:
 * the platform refuses a token issued in the same second as a revoke of the customer's tokens (platform
 * conventions, Tokens: "wait a couple of seconds"). The wait costs no request; the other checks go on meanwhile.
 */
const REVOKE_SETTLE_MS = 2_000

/**
 * Authentication 5 ("The customer token is revoked through" the revoke endpoint), on a customer of the run's
 * own — neither the configured customer nor the access check's disposable one, whose token its probe of the
 * revoke endpoint spends: the customer's token works on `GET /V1/customers/me`; revoked, it is refused there,
 * while a token the customer gets after the revoke works (token-judgements.ts, `judgeRevocation`).
 */
export async function revocation(row: EndpointRow, session: Session): Promise<Verdict> {
  const rules = [TOKEN_RULES.revocation]
  const trail: CallTrail = { exchanges: [], details: {} }
  const { exchanges, details } = trail
  const notJudged = (message: string, reason: NotJudgedReason): Verdict => ({
    status: 'skipped',
    message: `not judged: ${message}`,
    exchanges,
    details,
    rules,
    reason,
  })
  if (session.seed.readOnly) return notJudged(REVOCATION_READ_ONLY, 'read-only')
  const customer = await revocationCustomer(session)
  if (customer instanceof SetupError) {
    exchanges.push(...customer.exchanges)
    return notJudged(customer.message, customer.reason)
  }
  const store = session.seed.storeCode
  const call: TokenCall = (name, method, path, token, body) =>
    tokenCall({ session, store, trail }, name, method, path, token, body)
  const verdict = (j: RevocationJudgement): Verdict => ({ ...j, exchanges, details, rules })
  // Each call only while the ones before leave the rule open (token-judgements.ts judges them).
  const calls: RevocationCalls = { before: await call(REVOCATION_CALLS.before, 'GET', ME, customer.token) }
  let judged = judgeRevocation(calls)
  if (judged !== undefined) return verdict(judged)
  calls.revoke = await call(REVOCATION_CALLS.revoke, 'POST', row.path, customer.token)
  const revokedAt = Date.now()
  if ((judged = judgeRevocation(calls)) !== undefined) return verdict(judged)
  calls.after = await call(REVOCATION_CALLS.after, 'GET', ME, customer.token)
  if ((judged = judgeRevocation(calls)) !== undefined) return verdict(judged)
  // At once; when refused, again a couple of seconds after the revoke, as the platform refuses a token issued
  // in the revoke's second (platform conventions, Tokens): the second one is judged, and a target without that
  // rule costs the run no wait.
  calls.renewals = [await renew(call, customer, RENEWALS[0])]
  if ((judged = judgeRevocation(calls)) !== undefined) return verdict(judged)
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, revokedAt + REVOKE_SETTLE_MS - Date.now())))
  calls.renewals = [...calls.renewals, await renew(call, customer, RENEWALS[1])]
  return verdict(defined(judgeRevocation(calls), 'the revocation judged with every call made (two renewals decide)'))
}

/** What the revocation's calls leave for its verdict: their exchanges, and each call's answer by its name. */
interface CallTrail {
  exchanges: Exchange[]
  details: Record<string, string>
}

/** One of the revocation's calls, by its name (its tag in the run's evidence), with the token it sends, if any. */
type TokenCall = (
  name: string,
  method: 'GET' | 'POST',
  path: string,
  token: string | undefined,
  body?: unknown,
) => Promise<Probe & { issued?: string }>

/**
 * The run's own customer the revocation revokes the token of, or why none could be made (the setup's error, its
 * exchanges kept).
 */
async function revocationCustomer(session: Session): Promise<MadeCustomer | SetupError> {
  try {
    return await provisionerOf(session).customer('revocation')
  } catch (err) {
    if (!(err instanceof SetupError)) throw err
    return err
  }
}

/** One call, its exchange kept; a token it issues is a secret before anything records or quotes it. */
async function tokenCall(
  on: { session: Session; store: string; trail: CallTrail },
  name: string,
  method: 'GET' | 'POST',
  path: string,
  token: string | undefined,
  body?: unknown,
): Promise<Probe & { issued?: string }> {
  const { session, store, trail } = on
  const probe = `${TOKENS_PROBE}${name}`
  const outcome: Outcome = await session.send({
    method,
    path: session.targetPath(path),
    store,
    ...(token !== undefined ? { token } : {}),
    ...(body !== undefined ? { body } : {}),
    probe,
  })
  const issued = body !== undefined ? issuedBy(outcome) : undefined
  if (issued !== undefined) session.secrets.add(issued, 'fresh customer token')
  const p = {
    ...readProbe(session, {
      caller: 'customer',
      store,
      path: session.targetPath(path),
      ...outcome,
      exchange: issued !== undefined ? session.secrets.redactAnswer(outcome.exchange) : outcome.exchange,
    }),
    ...(issued !== undefined ? { issued } : {}),
  }
  trail.details[name] = detailOf(p, issued !== undefined)
  trail.exchanges.push(...exchangesOf(p))
  return p
}

/** A new token of the customer, and its use on GET /V1/customers/me. */
async function renew(call: TokenCall, customer: MadeCustomer, when: string): Promise<Renewal> {
  const fresh = await call(renewalCall(when), 'POST', '/V1/integration/customer/token', undefined, {
    username: customer.email,
    password: customer.password,
  })
  if (fresh.issued === undefined) return { when, fresh, issued: false }
  return { when, fresh, issued: true, use: await call(renewalUse(when), 'GET', ME, fresh.issued) }
}

/** The names of the revocation's first calls (each its tag in the run's evidence, after `tokens: `). */
export const REVOCATION_CALLS = {
  before: 'before the revoke',
  revoke: 'the revoke',
  after: 'after the revoke',
} as const

/** Why read-only mode does not judge the revocation. */
export const REVOCATION_READ_ONLY = 'read-only mode sends no POST, and the revoke is one'

/** When a new token is asked for after the revoke: at once, and again once the revoke's second is over. */
export const RENEWALS = ['at once', `${REVOKE_SETTLE_MS / 1000} s after the revoke`] as const

/** The names of a renewal's calls (each call's name is its tag in the run's evidence, after `tokens: `). */
export const renewalCall = (when: string) => `a new token ${when}`
export const renewalUse = (when: string) => `the new token ${when}`

/** The token a token call issued (its answer a non-empty JSON string), if any. */
export function issuedBy(outcome: Pick<Outcome, 'answer'>): string | undefined {
  const a = outcome.answer
  return a?.status === 200 && typeof a.body === 'string' && a.body !== '' ? a.body : undefined
}

/** A call as the result's details show it: a token's answer never quoted. */
export function detailOf(p: Probe, issued: boolean): string {
  return issued ? '200 (a token)' : quoteAnswer(p)
}
