/**
 * The preflight's customers, made as set-up: the run hands the preflight this Registrar (lib/shop/tokens.ts
 * declares it), so what the preflight makes on the shop is named, recorded and repeated like every other entity
 * the run makes, without lib/shop importing any of it.
 */
import type { Answer } from '../shop/request.ts'
import { findByKey, type AdminGet } from '../shop/lookup.ts'
import { messageOf, requireAnswer, TokenError, type Registrar } from '../shop/tokens.ts'
import { runEmail } from './identifiers.ts'
import type { Ledger } from './ledger.ts'
import { registration } from './registration.ts'
import { sendRecorded } from './setup-call.ts'
import { endpointText } from '../spec/endpoint-id.ts'

/**
 * Registers customers as registration.ts does, through the preflight's client: in `ledger` (the run's cleanup
 * ledger; none in tests that make throw-away targets) before each is sent; repeated, after looking it up by its
 * e-mail with the admin token, when an answer never came (a cold shop may have made it all the same).
 */
export function customerRegistrar(ledger?: Ledger): Registrar {
  return {
    async registerCustomer(client, secrets, { runId, role, store, adminToken }) {
      const get: AdminGet = (path, query) =>
        client.send({ method: 'GET', path, store, token: adminToken, ...(query !== undefined ? { query } : {}) })
      const email = runEmail(runId, role, 'customer ')
      const made = registration(
        secrets,
        { email, firstname: 'Conformance', lastname: `Run ${runId}` },
        `${role} customer`,
        () => findByKey(get, 'customer', email),
      )
      const send = (onSent?: () => void) =>
        client.send({ ...made.call, store, ...(onSent !== undefined ? { onSent } : {}) })
      const registered = (a: Answer) => a.status === 200 && a.body !== null && typeof a.body === 'object'
      // Looked for as long as a registration's deadline before it is sent again (a real shop took 12–16 s to register).
      const result = await sendRecorded(send, registered, 'if-nothing-made', ledger, made.creation, undefined, () =>
        client.deadlineOf('POST', made.call.path),
      )
      const answer = result.answer ?? requireAnswer(result.last, 'customer registration')
      if (!registered(answer)) {
        throw new TokenError(
          `customer registration (${endpointText(made.call)}) failed with ${answer.status}${messageOf(answer.body)}; configure SHOP_CUSTOMER_EMAIL and SHOP_CUSTOMER_PASSWORD instead`,
        )
      }
      const id = (answer.body as { id?: number | string }).id
      return { username: email, password: made.password, ...(id !== undefined ? { id } : {}) }
    },
  }
}
