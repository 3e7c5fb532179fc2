/**
 * The preflight's customers, made as set-up: the run hands the preflight this Registrar (lib/shop/tokens.ts
 * declares it), so what the preflight makes on the shop is named, recorded and repeated like every other entity
 * the run makes, without lib/shop importing any of it.
 */
import { randomBytes } from 'node:crypto'
import type { Answer } from '../shop/request.ts'
import { findByKey, type AdminGet } from '../shop/lookup.ts'
import { messageOf, requireAnswer, TokenError, type Registrar } from '../shop/tokens.ts'
import { runEmail } from './identifiers.ts'
import type { Ledger } from './ledger.ts'
import { sendRecorded } from './setup-call.ts'

/**
 * Registers customers through `POST /V1/customers` (anonymous; body per the conventions): in `ledger` (the run's
 * cleanup ledger; none in tests that make throw-away targets) before each is sent; repeated, after looking it
 * up by its e-mail with the admin token, when an answer never came (a cold shop may have made it all the same).
 */
export function customerRegistrar(ledger?: Ledger): Registrar {
  return {
    async registerCustomer(client, secrets, { runId, role, store, adminToken }) {
      const email = runEmail(runId, role, 'customer ')
      // At least 8 characters from 3 classes, as the platform demands.
      const password = `${randomBytes(12).toString('base64url')}aA1!`
      secrets.add(password, 'customer password')
      const send = () => client.send({ method: 'POST', path: '/V1/customers', store, body: { customer: { email, firstname: 'Conformance', lastname: `Run ${runId}` }, password } })
      const get: AdminGet = (path, query) => client.send({ method: 'GET', path, store, token: adminToken, ...(query !== undefined ? { query } : {}) })
      const registered = (a: Answer) => a.status === 200 && a.body !== null && typeof a.body === 'object'
      const result = await sendRecorded(send, registered, 'if-nothing-made', ledger, {
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
    },
  }
}
