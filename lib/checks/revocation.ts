import { provisionerOf, SetupError, type MadeCustomer } from '../setup/provision.ts'
import { endpointId } from '../spec/catalog/index.ts'
import { TOKEN_RULES } from '../spec/rules.ts'
import type { EndpointRow } from '../spec/types.ts'
import type { Exchange } from '../results/exchange.ts'
import type { Outcome } from '../shop/request.ts'
import { unanswered } from '../shop/answer-text.ts'
import type { Session } from '../shop/session.ts'
import type { Admission } from '../spec/admission.ts'
import { describeOpen, judgeCell, seenOf } from './access.ts'
import { quoteAnswer, type Probe } from './probe.ts'
import type { NotJudgedReason, Verdict } from '../results/verdict.ts'

export const REVOKE = endpointId('POST /V1/integration/customer/revoke-customer-token')
/** The self endpoint a token is tried on: every customer may read itself. */
const ME = '/V1/customers/me'

/**
 * How long after the revoke's answer a new token is asked for again when the one asked for at once was refused:
 * the platform refuses a token issued in the same second as a revoke of the customer's tokens (platform
 * conventions, Tokens: "wait a couple of seconds"). The wait costs no request; the other checks go on meanwhile.
 */
export const REVOKE_SETTLE_MS = 2_000

/**
 * Authentication 5 ("The customer token is revoked through" the revoke endpoint), on a customer of the run's
 * own — neither the configured customer nor the access check's disposable one, whose token its probe of the
 * revoke endpoint spends: the customer's token works on `GET /V1/customers/me`; revoked, it is refused there,
 * while a token the customer gets after the revoke works. The token before and the new one after are the
 * controls: without them a refusal could be the endpoint's, or a revoke that locked the customer out.
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
    const p = { caller: 'customer' as const, store, path, ...outcome, exchange: issued !== undefined ? session.secrets.redact(outcome.exchange) : outcome.exchange, ...(issued !== undefined ? { issued } : {}) }
    details[name] = issued !== undefined ? '200 (a token)' : quoteAnswer(p)
    exchanges.push(p.exchange)
    return p
  }
  /** A call on the self endpoint read as the access check reads a cell; a message when it is not as expected. */
  const expect = async (name: string, token: string, expected: Admission): Promise<{ ok: boolean | null; p: Probe }> => {
    const p = await call(name, 'GET', ME, token)
    return { ok: judgeCell(expected, seenOf(session, p)), p }
  }
  const unjudged = (p: Probe): NotJudgedReason => (p.answer === undefined ? unanswered(p).reason : 'unusable-answer')

  const before = await expect('before the revoke', customer.token, 'accept')
  if (before.ok !== true) return notJudged(`the customer's token was not let through GET ${ME} before the revoke (${quoteAnswer(before.p)}), so a refusal after it could not show the revoke (see the access check)`, unjudged(before.p))
  const revoke = await call('the revoke', 'POST', row.path, customer.token)
  const revokedAt = Date.now()
  if (revoke.answer === undefined || revoke.answer.status < 200 || revoke.answer.status >= 300) {
    return notJudged(`the revoke was not accepted (${quoteAnswer(revoke)}), so nothing was revoked to judge (see the route and access checks)`, unjudged(revoke))
  }
  const after = await expect('after the revoke', customer.token, 'refuse')
  if (after.ok === false) return { status: 'failed', message: `the revoked token was let through GET ${ME} (${quoteAnswer(after.p)}) after the revoke answered ${quoteAnswer(revoke)}`, exchanges, details, rules }
  if (after.ok === null) return notJudged(`after the revoke (${quoteAnswer(revoke)}) the token ${describeOpen({ seen: seenOf(session, after.p), answer: quoteAnswer(after.p) })}`, unjudged(after.p))

  /** A new token of the customer, and whether GET /V1/customers/me lets it through. */
  const renew = async (when: string): Promise<{ ok: boolean | null; text: string; reason?: NotJudgedReason }> => {
    const fresh = await call(`a new token ${when}`, 'POST', '/V1/integration/customer/token', undefined, { username: customer.email, password: customer.password })
    if (fresh.issued === undefined) {
      const refused = fresh.answer !== undefined && (fresh.answer.status === 401 || fresh.answer.status === 403)
      return { ok: refused ? false : null, text: `the customer's own credentials got no token ${when} (${quoteAnswer(fresh)})`, ...(refused ? {} : { reason: unjudged(fresh) }) }
    }
    const use = await expect(`the new token ${when}`, fresh.issued, 'accept')
    const got = `a token the customer got ${when}`
    if (use.ok === true) return { ok: true, text: `${got} was let through GET ${ME} (${use.p.answer!.status})` }
    if (use.ok === false) return { ok: false, text: `${got} was refused on GET ${ME} (${quoteAnswer(use.p)})` }
    return { ok: null, text: `${got} got no usable answer on GET ${ME} (${quoteAnswer(use.p)})`, reason: unjudged(use.p) }
  }
  // At once; when refused, again a couple of seconds after the revoke, as the platform refuses a token issued
  // in the revoke's second (platform conventions, Tokens): the second one is judged, and a target without that
  // rule costs the run no wait.
  let renewed = await renew('at once')
  if (renewed.ok === false) {
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, revokedAt + REVOKE_SETTLE_MS - Date.now())))
    renewed = await renew(`${REVOKE_SETTLE_MS / 1000} s after the revoke`)
  }
  if (renewed.ok === false) return { status: 'failed', message: `${renewed.text}: the revoke did more than revoke the token`, exchanges, details, rules }
  if (renewed.ok === null) return notJudged(renewed.text, renewed.reason ?? 'unusable-answer')
  return { status: 'passed', message: `the revoked token was refused on GET ${ME} (${quoteAnswer(after.p)}); ${renewed.text}`, exchanges, details, rules }
}
