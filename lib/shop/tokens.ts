import type { TargetClient } from './client.ts'
import type { Outcome } from './request.ts'
import type { Credentials } from '../settings/config.ts'
import type { Secrets } from './secrets.ts'
import { messageText, quoteText } from './answer-text.ts'

/** Token acquisition failed in a way the user must fix; the message is the one line they see. */
export class TokenError extends Error {}

export interface RegisteredCustomer extends Credentials {
  id?: number | string
}

/**
 * Registers customers of the run's own on the shop for the preflight. Making something on the shop is set-up
 * (named within a real shop's limits, in the ledger before it is sent, repeated and found when an answer never
 * came), so the run hands the preflight one from lib/setup/ and nothing here knows the ledger. Fails with a
 * TokenError the user can act on (the preflight's one line).
 */
/**
 * How the customer the user configured is named in messages and redactions (`[redacted configured customer token]`).
 */
export const CONFIGURED_CUSTOMER = 'configured customer'

export interface Registrar {
  registerCustomer(
    client: TargetClient,
    secrets: Secrets,
    customer: { runId: string; role: string; store: string; adminToken: string },
  ): Promise<RegisteredCustomer>
}

/**
 * `POST /V1/integration/{admin|customer}/token` with `{username, password}` (platform conventions, Tokens):
 * the answer is a bare JSON string. A refusal is never retried: the platform locks an account after 6.
 * `who` names the account in messages and redactions (`limited admin` for the acl check's admin).
 */
export async function requestToken(
  client: TargetClient,
  secrets: Secrets,
  kind: 'admin' | 'customer',
  credentials: Credentials,
  store: string,
  who: string = kind,
): Promise<string> {
  secrets.add(credentials.password, `${who} password`)
  const outcome = await client.send({
    method: 'POST',
    path: `/V1/integration/${kind}/token`,
    store,
    body: { username: credentials.username, password: credentials.password },
  })
  const answer = requireAnswer(outcome, `${who} token`)
  if (kind === 'admin' && answer.status !== 200 && TWO_FACTOR.test(messageText(answer.body) ?? '')) {
    const setting = who === 'limited admin' ? 'SHOP_LIMITED_ADMIN_TOKEN' : 'SHOP_ADMIN_TOKEN'
    throw new TokenError(
      `${who} credentials refused: the shop signs its admins in with two-factor authentication and gives no token for a password (${answer.status}${messageOf(answer.body)}); give an integration's access token as ${setting} instead (README: "A shop with two-factor admin login")`,
    )
  }
  if (answer.status === 401 || answer.status === 403) {
    throw new TokenError(`${who} credentials refused by the target (${answer.status}${messageOf(answer.body)})`)
  }
  if (answer.status !== 200 || typeof answer.body !== 'string' || answer.body === '') {
    throw new TokenError(
      `${who} token: expected 200 with a JSON string, got ${answer.status}${messageOf(answer.body) || ` ${JSON.stringify(answer.text.slice(0, 80))}`}`,
    )
  }
  secrets.add(answer.body, `${who} token`)
  return answer.body
}

/**
 * How the platform's two-factor module refuses right admin credentials at the token endpoint (400,
 * Magento_TwoFactorAuth BlockAdminTokenCreation: "Please use the 2fa provider-specific endpoints to obtain a token.",
 * or that the user must configure it first); wrong credentials still get the usual 401.
 */
const TWO_FACTOR = /\b2fa\b|two-factor/i

/** The answer, or the TokenError that says the target did not give one (`what`: the call, for the message). */
export function requireAnswer(outcome: Outcome, what: string) {
  if (outcome.answer === undefined) {
    const url = outcome.exchange.request.url
    const why = outcome.failure?.message ?? 'no answer'
    throw new TokenError(
      `target unreachable: ${what} request to ${new URL(url).origin} failed (${why})${CERTIFICATE.test(why) ? CERTIFICATE_HINT : ''}`,
    )
  }
  return outcome.answer
}

/**
 * Node's codes for a certificate it could not verify: self-signed, of a CA it does not know, expired, for another name.
 */
const CERTIFICATE =
  /SELF_SIGNED|UNABLE_TO_(VERIFY|GET_ISSUER)|CERT_(HAS_EXPIRED|NOT_YET_VALID|UNTRUSTED|REJECTED)|ERR_TLS_CERT_ALTNAME_INVALID/
const CERTIFICATE_HINT =
  ": the target's TLS certificate could not be verified — for a private CA, set NODE_EXTRA_CA_CERTS=/path/ca.pem; to skip verification, pass --insecure (every report then says so)"

/** `: "<the shop's message>"` when the body has one, to end a TokenError's line with; else nothing. */
export function messageOf(body: unknown): string {
  const text = messageText(body)
  return text === undefined ? '' : `: ${quoteText(text, Number.POSITIVE_INFINITY)}`
}
