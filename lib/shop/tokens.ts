import { randomBytes } from 'node:crypto'
import type { Outcome, TargetClient } from './client.ts'
import type { Credentials } from '../settings/config.ts'
import type { Secrets } from './secrets.ts'
import { messageText, quoteText } from './answer-text.ts'
import { runEmail } from '../setup/identifiers.ts'
import type { Ledger } from '../setup/ledger.ts'
import { sendRecorded } from '../setup/setup-call.ts'
import type { Answer } from './client.ts'
import { findByKey, type AdminGet } from './lookup.ts'

/** Token acquisition failed in a way the user must fix; the message is the one line they see. */
export class TokenError extends Error {}

export interface RegisteredCustomer extends Credentials {
  id?: number | string
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
  if (answer.status === 401 || answer.status === 403) {
    throw new TokenError(`${who} credentials refused by the target (${answer.status}${messageOf(answer.body)})`)
  }
  if (answer.status !== 200 || typeof answer.body !== 'string' || answer.body === '') {
    throw new TokenError(`${who} token: expected 200 with a JSON string, got ${answer.status}${messageOf(answer.body) || ` ${JSON.stringify(answer.text.slice(0, 80))}`}`)
  }
  secrets.add(answer.body, `${who} token`)
  return answer.body
}

/**
 * Registers a customer of this run's own through `POST /V1/customers` (anonymous; body per the conventions): in
 * the ledger before it is sent; repeated, after looking it up by its e-mail with the admin token, when an
 * answer never came (a cold shop may have made it all the same).
 */
export async function registerCustomer(
  client: TargetClient,
  secrets: Secrets,
  runId: string,
  role: string,
  store: string,
  options: { adminToken: string; ledger?: Ledger },
): Promise<RegisteredCustomer> {
  const email = runEmail(runId, role, 'customer ')
  // At least 8 characters from 3 classes, as the platform demands.
  const password = `${randomBytes(12).toString('base64url')}aA1!`
  secrets.add(password, 'customer password')
  const send = () => client.send({ method: 'POST', path: '/V1/customers', store, body: { customer: { email, firstname: 'Conformance', lastname: `Run ${runId}` }, password } })
  const get: AdminGet = (path, query) => client.send({ method: 'GET', path, store, token: options.adminToken, ...(query !== undefined ? { query } : {}) })
  const registered = (a: Answer) => a.status === 200 && a.body !== null && typeof a.body === 'object'
  const result = await sendRecorded(send, registered, 'if-nothing-made', options.ledger, {
    kind: 'customer',
    label: `${role} customer`,
    key: email,
    find: () => findByKey(get, 'customer', email),
    idOf: (body) => {
      const id = (body as { id?: unknown } | null)?.id
      return typeof id === 'number' || typeof id === 'string' ? String(id) : undefined
    },
  })
  const answer = result.answer ?? requireAnswer(result.last, 'customer registration')
  if (!registered(answer)) {
    throw new TokenError(
      `customer registration (POST /V1/customers) failed with ${answer.status}${messageOf(answer.body)}; configure SHOP_CUSTOMER_EMAIL and SHOP_CUSTOMER_PASSWORD instead`,
    )
  }
  const id = (answer.body as { id?: number | string }).id
  return { username: email, password, ...(id !== undefined ? { id } : {}) }
}

function requireAnswer(outcome: Outcome, what: string) {
  if (outcome.answer === undefined) {
    const url = outcome.exchange.request.url
    throw new TokenError(`target unreachable: ${what} request to ${new URL(url).origin} failed (${outcome.failure?.message ?? 'no answer'})`)
  }
  return outcome.answer
}

function messageOf(body: unknown): string {
  const text = messageText(body)
  return text === undefined ? '' : `: ${quoteText(text, Number.POSITIVE_INFINITY)}`
}
