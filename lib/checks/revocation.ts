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
import { judgeRevocation, ME, type Renewal, type RevocationCalls, type RevocationJudgement } from './token-judgements.ts'
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
  const exchanges: Exchange[] = []
  const details: Record<string, string> = {}
  const notJudged = (message: string, reason: NotJudgedReason): Verdict => ({ status: 'skipped', message: `not judged: ${message}`, exchanges, details, rules, reason })
  if (session.seed.readOnly) return notJudged('read-only mode sends no POST, and the revoke is one', 'read-only')
  let customer: MadeCustomer
  try {
    customer = await provisionerOf(session).customer('revocation')
  } catch (err) {
    if (!(err instanceof SetupError)) throw err
    exchanges.push(...err.exchanges)
    return notJudged(err.message, err.reason)
  }
  const store = session.seed.storeCode
  /** One call, its exchange kept; a token it issues is a secret before anything records or quotes it. */
  const call = async (name: string, method: 'GET' | 'POST', path: string, token: string | undefined, body?: unknown): Promise<Probe & { issued?: string }> => {
    const outcome: Outcome = await session.send({ method, path: session.targetPath(path), store, ...(token !== undefined ? { token } : {}), ...(body !== undefined ? { body } : {}) })
    const a = outcome.answer
    const issued = body !== undefined && a?.status === 200 && typeof a.body === 'string' && a.body !== '' ? a.body : undefined
    if (issued !== undefined) session.secrets.add(issued, 'fresh customer token')
    const p = { ...readProbe(session, { caller: 'customer', store, path: session.targetPath(path), ...outcome, exchange: issued !== undefined ? session.secrets.redact(outcome.exchange) : outcome.exchange }), ...(issued !== undefined ? { issued } : {}) }
    details[name] = issued !== undefined ? '200 (a token)' : quoteAnswer(p)
    exchanges.push(...exchangesOf(p))
    return p
  }
  /** A new token of the customer, and its use on GET /V1/customers/me. */
  const renew = async (when: string): Promise<Renewal> => {
    const fresh = await call(`a new token ${when}`, 'POST', '/V1/integration/customer/token', undefined, { username: customer.email, password: customer.password })
    if (fresh.issued === undefined) return { when, fresh, issued: false }
    return { when, fresh, issued: true, use: await call(`the new token ${when}`, 'GET', ME, fresh.issued) }
  }
  const verdict = (j: RevocationJudgement): Verdict => ({ ...j, exchanges, details, rules })
  // Each call only while the ones before leave the rule open (token-judgements.ts judges them).
  const calls: RevocationCalls = { before: await call('before the revoke', 'GET', ME, customer.token) }
  let judged = judgeRevocation(calls)
  if (judged !== undefined) return verdict(judged)
  calls.revoke = await call('the revoke', 'POST', row.path, customer.token)
  const revokedAt = Date.now()
  if ((judged = judgeRevocation(calls)) !== undefined) return verdict(judged)
  calls.after = await call('after the revoke', 'GET', ME, customer.token)
  if ((judged = judgeRevocation(calls)) !== undefined) return verdict(judged)
  // At once; when refused, again a couple of seconds after the revoke, as the platform refuses a token issued
  // in the revoke's second (platform conventions, Tokens): the second one is judged, and a target without that
  // rule costs the run no wait.
  calls.renewals = [await renew('at once')]
  if ((judged = judgeRevocation(calls)) !== undefined) return verdict(judged)
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, revokedAt + REVOKE_SETTLE_MS - Date.now())))
  calls.renewals = [...calls.renewals, await renew(`${REVOKE_SETTLE_MS / 1000} s after the revoke`)]
  return verdict(judgeRevocation(calls)!)
}
