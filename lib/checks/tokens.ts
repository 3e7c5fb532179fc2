import { randomBytes } from 'node:crypto'
import { provisionerOf, SetupError } from '../setup/provision.ts'
import { runEmail, runMark } from '../setup/identifiers.ts'
import { endpointId, rowId } from '../spec/catalog/index.ts'
import { TOKEN_RULES } from '../spec/rules.ts'
import type { EndpointRow } from '../spec/types.ts'
import type { Exchange } from '../results/exchange.ts'
import type { Outcome } from '../shop/request.ts'
import type { Credentials } from '../settings/config.ts'
import type { Session } from '../shop/session.ts'
import { REVOKE, revocation } from './revocation.ts'
import { judgeWrongCredentials, TOKENS_PROBE } from './token-judgements.ts'
import type { NotJudgedReason, Status, Verdict } from '../results/verdict.ts'
import type { Check } from './types.ts'

const ADMIN_TOKEN = endpointId('POST /V1/integration/admin/token')
export const CUSTOMER_TOKEN = endpointId('POST /V1/integration/customer/token')

/** One call with wrong credentials, judged. */
export interface Reading {
  status: Status
  text: string
  warning?: string
  reason?: NotJudgedReason
  exchanges: Exchange[]
}

/**
 * Authentication 5: tokens "are obtained from" the two token endpoints, for the caller's credentials — so
 * neither issues one for an unknown user name or a wrong password. Only credentials that cannot lock an
 * account out are tried (the platform locks one after a few failures): an unknown user name always, and a
 * wrong password only for a customer the run registered itself — never the configured admin or customer, so
 * the admin token endpoint gets the unknown user only.
 */
async function issuing(row: EndpointRow, session: Session): Promise<Verdict> {
  const customer = rowId(row) === CUSTOMER_TOKEN
  const given = customer ? undefined : session.seed.givenTokens?.admin
  if (given !== undefined) {
    // The admin's own sign-in at this endpoint is what shows it issues tokens for right credentials; with a token given
    // there is none (a shop with two-factor admin login issues no token for any password), and a refusal shows nothing.
    const message = `not judged: the admin's token was given (${given}), not obtained here with a password, so nothing shows this endpoint issues a token for right credentials — and a refusal of wrong ones would show nothing`
    return { status: 'skipped', message, exchanges: [], rules: [TOKEN_RULES.issuing], reason: 'token-given' }
  }
  const readings = [signIn(session, row, UNKNOWN_USER, unknownUser(session, customer))]
  if (customer) readings.push(wrongPassword(session, row))
  return issuingVerdict(await Promise.all(readings))
}

/** How the unknown user's sign-in is named: first of the readings, in the live run and in a recording alike. */
export const UNKNOWN_USER = 'an unknown user name'

/**
 * The readings of the calls with wrong credentials, as one verdict (pure: `judge --har` makes it from a recording too).
 */
export function issuingVerdict(done: readonly Reading[]): Verdict {
  const exchanges = done.flatMap((r) => r.exchanges)
  const warnings = done.flatMap((r) => (r.warning !== undefined ? [r.warning] : []))
  const rules = [TOKEN_RULES.issuing]
  const text = done.map((r) => r.text).join('; ')
  const details = { attempts: done.map(({ status, text: t }) => ({ status, text: t })) }
  if (done.some((r) => r.status === 'failed'))
    return { status: 'failed', message: text, exchanges, warnings, rules, details }
  const open = done.find((r) => r.status === 'skipped')
  if (open !== undefined)
    return {
      status: 'skipped',
      message: `not fully judged: ${text}`,
      exchanges,
      warnings,
      rules,
      details,
      reason: open.reason ?? 'suite-error',
    }
  return { status: 'passed', message: text, exchanges, warnings, rules, details }
}

/** A wrong password not tried, and why (read-only mode, or the customer could not be registered). */
export function wrongPasswordNotTried(
  why: string,
  reason: NotJudgedReason | undefined,
  exchanges: Exchange[],
): Reading {
  return {
    status: 'skipped',
    text: `a wrong password not tried: ${why}`,
    ...(reason !== undefined ? { reason } : {}),
    exchanges,
  }
}

/** Why read-only mode tries no wrong password. */
export const READ_ONLY_NO_WRONG_PASSWORD =
  "read-only mode registers no customer of the run's own, and a wrong password is never tried on a configured account"

/** A user name no shop has: it carries the run id, and no account of the run is ever given it. */
function unknownUser(session: Session, customer: boolean): Credentials {
  const runId = session.seed.runId
  return {
    username: customer ? runEmail(runId, 'unknown user', 'nobody ') : `${runMark(runId)}-nobody`,
    password: madeUpPassword(),
  }
}

/** Valid by the platform's rules (8 characters of 3 classes), so a refusal cannot be about its form alone. */
function madeUpPassword(): string {
  return `${randomBytes(9).toString('base64url')}Wq7!`
}

/** A wrong password for a customer of the run's own (registered for this, so a lock-out harms nobody). */
async function wrongPassword(session: Session, row: EndpointRow): Promise<Reading> {
  try {
    const c = await provisionerOf(session).customer('wrong password')
    return signIn(session, row, `a wrong password for the run's own customer ${c.email}`, {
      username: c.email,
      password: madeUpPassword(),
    })
  } catch (err) {
    if (!(err instanceof SetupError)) throw err
    return wrongPasswordNotTried(
      err.reason === 'read-only' ? READ_ONLY_NO_WRONG_PASSWORD : err.message,
      err.reason,
      err.exchanges,
    )
  }
}

async function signIn(session: Session, row: EndpointRow, what: string, credentials: Credentials): Promise<Reading> {
  const body = { username: credentials.username, password: credentials.password }
  const outcome = await session.send({
    method: 'POST',
    path: session.targetPath(row.path),
    store: session.seed.storeCode,
    body,
    probe: `${TOKENS_PROBE}${what}`,
  })
  return readRefusal(session, what, outcome)
}

/**
 * An answer to wrong credentials, judged (token-judgements.ts); a token it issued is registered as a secret at once,
 * so neither the exchange nor the message shows it.
 */
function readRefusal(session: Session, what: string, outcome: Outcome): Reading {
  const { token, ...judged } = judgeWrongCredentials(what, outcome)
  if (token !== undefined) session.secrets.add(token, 'token issued for wrong credentials')
  return {
    ...judged,
    exchanges: [token !== undefined ? session.secrets.redactAnswer(outcome.exchange) : outcome.exchange],
  }
}

export const tokensCheck: Check = {
  name: 'tokens',
  description:
    'The token endpoints issue no token for wrong credentials, and a revoked customer token is refused while a fresh one works.',
  spec: ['Authentication 5'],
  rules: Object.values(TOKEN_RULES),
  appliesTo: (row) =>
    [ADMIN_TOKEN, CUSTOMER_TOKEN, REVOKE].includes(rowId(row))
      ? true
      : 'not a token endpoint (Authentication 5 names the two token endpoints and the revoke)',
  alsoCalls: [endpointId('POST /V1/customers'), CUSTOMER_TOKEN, endpointId('GET /V1/customers/me')],
  run: (row, session) => (rowId(row) === REVOKE ? revocation(row, session) : issuing(row, session)),
}
