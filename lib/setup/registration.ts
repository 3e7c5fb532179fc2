/**
 * How the run registers a customer of its own, written once for the preflight's customers (registrar.ts, through
 * the preflight's client) and the provisioner's (catalog-maker.ts, through its session): `POST /V1/customers`
 * (anonymous, the spec's createAccount; body per the conventions) with a password made for it, in the ledger before
 * it is sent, and — when an answer never came — looked up by its e-mail before it is sent again.
 */
import { randomBytes } from 'node:crypto'
import { isObject } from '../base/is-object.ts'
import type { Secrets } from '../shop/secrets.ts'
import { endpointId, rowOf } from '../spec/catalog/index.ts'
import { idText } from './platform-ids.ts'
import type { Creation } from './setup-call.ts'

const CREATE_ACCOUNT = rowOf(endpointId('POST /V1/customers'))

interface Registration {
  /** The call as sent, anonymously. */
  call: { method: 'POST'; path: string; body: { customer: { readonly email: string }; password: string } }
  email: string
  /** A secret of the run from now on (never written). */
  password: string
  /** For the ledger and a repeat: found by its e-mail; its id is the one the answer names. */
  creation: Creation
}

/**
 * The registration of `customer` (its e-mail, names and, where wanted, addresses), `label` naming it in the
 * ledger; `find` looks it up by its e-mail (with the admin's token).
 */
export function registration<C extends { readonly email: string }>(
  secrets: Secrets,
  customer: C,
  label: string,
  find: NonNullable<Creation['find']>,
): Registration {
  // At least 8 characters from 3 classes, as the platform demands.
  const password = `${randomBytes(12).toString('base64url')}aA1!`
  secrets.add(password, 'customer password')
  return {
    call: { method: 'POST', path: CREATE_ACCOUNT.path, body: { customer, password } },
    email: customer.email,
    password,
    creation: {
      kind: 'customer',
      label,
      key: customer.email,
      find,
      idOf: (body) => idText(isObject(body) ? body.id : undefined),
    },
  }
}
