import { randomBytes } from 'node:crypto'
import type { Outcome, TargetClient } from './client.ts'
import type { Credentials } from './config.ts'
import type { Secrets } from './secrets.ts'
import { messageText } from './answer-text.ts'
import { runEmail } from '../../fixtures/identifiers.ts'

/** Token acquisition failed in a way the user must fix; the message is the one line they see. */
export class TokenError extends Error {}

export interface RegisteredCustomer extends Credentials {
  id?: number | string
}

/**
 * `POST /V1/integration/{admin|customer}/token` with `{username, password}` (platform conventions, Tokens):
 * the answer is a bare JSON string. A refusal is never retried: the platform locks an account after 6.
 */
export async function requestToken(
  client: TargetClient,
  secrets: Secrets,
  kind: 'admin' | 'customer',
  credentials: Credentials,
  store: string,
): Promise<string> {
  secrets.add(credentials.password, `${kind} password`)
  const outcome = await client.send({
    method: 'POST',
    path: `/V1/integration/${kind}/token`,
    store,
    body: { username: credentials.username, password: credentials.password },
  })
  const answer = requireAnswer(outcome, `${kind} token`)
  if (answer.status === 401 || answer.status === 403) {
    throw new TokenError(`${kind} credentials refused by the target (${answer.status}${messageOf(answer.body)})`)
  }
  if (answer.status !== 200 || typeof answer.body !== 'string' || answer.body === '') {
    throw new TokenError(`${kind} token: expected 200 with a JSON string, got ${answer.status}${messageOf(answer.body) || ` ${JSON.stringify(answer.text.slice(0, 80))}`}`)
  }
  secrets.add(answer.body, `${kind} token`)
  return answer.body
}

/** Registers a customer of this run's own through `POST /V1/customers` (anonymous; body per the conventions). */
export async function registerCustomer(
  client: TargetClient,
  secrets: Secrets,
  runId: string,
  role: string,
  store: string,
): Promise<RegisteredCustomer> {
  const email = runEmail(runId, role, 'customer ')
  // At least 8 characters from 3 classes, as the platform demands.
  const password = `${randomBytes(12).toString('base64url')}aA1!`
  secrets.add(password, 'customer password')
  const outcome = await client.send({
    method: 'POST',
    path: '/V1/customers',
    store,
    body: { customer: { email, firstname: 'Conformance', lastname: `Run ${runId}` }, password },
  })
  const answer = requireAnswer(outcome, 'customer registration')
  if (answer.status !== 200 || answer.body === null || typeof answer.body !== 'object') {
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
  return text === undefined ? '' : `: "${text}"`
}
