/**
 * The "self" rule in full (spec § Authentication 3: a customer token works when the caller owns the
 * resource): customer B's `mine`/`me` calls never read or change customer A's cart or account, even when B
 * names A's item, cart or id.
 */
import { describeAnswer, isSuccess, type MadeCustomer } from '../setup/provision.ts'
import type { AddressDraft } from '../setup/builders.ts'
import { notServed } from '../checks/route.ts'
import type { Answer } from '../shop/request.ts'
import { SELF_RULES } from '../spec/rules.ts'
import { addressDifferences, different, sameNumber, step, type SpecCall, type StepScope } from './steps.ts'
import type { Workflow } from './types.ts'
import { isObject } from '../base/is-object.ts'
import { endpointText } from '../spec/endpoint-id.ts'
import { endpointId } from '../spec/catalog/index.ts'
import { LISTED, serverErrorOf } from '../shop/server-error.ts'

interface CustomerA extends MadeCustomer {
  cartId: number
  itemId: number
  sku: string
  qty: number
  firstname: unknown
  billing: AddressDraft
}

interface CustomerB extends MadeCustomer {
  cartId: number
}

/** What the steps hand on: the two customers, and B's record as B's own token read it. */
interface MineIsolationState {
  customerA: CustomerA
  customerB: CustomerB
  customerBRecord: Record<string, unknown>
}

/** A's cart as the admin reads it (`GET /V1/carts/:cartId`). */
async function cartOfA(s: StepScope<MineIsolationState>, a: CustomerA): Promise<Record<string, unknown>> {
  const answer = await s.setupCall(
    "read customer A's cart as the admin",
    { method: 'GET', path: `/V1/carts/${a.cartId}`, actor: 'admin' },
    (x) => x.status === 200 && isObject(x.body),
  )
  return answer.body as Record<string, unknown>
}

/**
 * How B's call came back, for the pass message: refused, a server error that left A alone, or acting on B's own
 * resource.
 */
function outcome(answer: Answer, own: string): string {
  if (isSuccess(answer)) return `B's call answered ${describeAnswer(answer)}, acting on B's own ${own}`
  const error = serverErrorOf(answer)
  return error !== undefined
    ? `B's call answered ${error.text} (${LISTED})`
    : `B's call was refused (${describeAnswer(answer)})`
}

/**
 * No route is neither a refusal nor an action on B's own resource. A server error is no rule of the spec (the run
 * lists it): what it did to A is read back like any other answer's.
 */
function requireRefusalOrSuccess(s: StepScope<MineIsolationState>, call: SpecCall, answer: Answer): void {
  if (isSuccess(answer)) return
  if (s.ctx.session.looksLikeNoRoute(answer, s.ctx.session.targetPath(call.path)))
    s.fail(notServed(endpointText(call), describeAnswer(answer)))
}

export const mineIsolationWorkflow: Workflow<MineIsolationState> = {
  name: 'mine-isolation',
  module: 'quote',
  description:
    "Customer B's own-resource calls (me, mine) act on B only: B reads B, B's item update naming A's item leaves A's cart alone, B's billing address does not land on A's cart, B's account update does not touch A.",
  spec: [
    'Authentication',
    'Endpoints › Endpoint lists by module › Quote',
    'Endpoints › Endpoint lists by module › Customer',
  ],
  steps: [
    step('customer A with an item in its cart', undefined, async (s: StepScope<MineIsolationState>) => {
      const customer = await s.setup(() => s.fx.customer('isolation A'))
      const cart = await s.setup(() => s.fx.customerCart(customer, 'isolation A'))
      const product = await s.setup(() => s.fx.mainProduct())
      const item = await s.setup(() => s.fx.addItem(cart, product.sku, 1))
      const billing = s.fx.builders.address('isolation A billing', customer.email)
      await s.setupCall("assign customer A's billing address", {
        method: 'POST',
        path: '/V1/carts/mine/billing-address',
        actor: { token: customer.token },
        body: { address: billing },
      })
      const record = await s.setupCall(
        'read customer A as the admin',
        { method: 'GET', path: `/V1/customers/${customer.id}`, actor: 'admin' },
        (x) => x.status === 200 && isObject(x.body),
      )
      const a: CustomerA = {
        ...customer,
        cartId: cart.id,
        itemId: item.item_id,
        sku: product.sku,
        qty: 1,
        firstname: (record.body as Record<string, unknown>).firstname,
        billing,
      }
      s.keep('customerA', a)
      return `customer ${a.id}: cart ${a.cartId} with item ${a.itemId} (${a.sku} × 1) and a billing address`
    }),

    step('customer B with a cart of its own', undefined, async (s: StepScope<MineIsolationState>) => {
      const customer = await s.setup(() => s.fx.customer('isolation B'))
      const cart = await s.setup(() => s.fx.customerCart(customer, 'isolation B'))
      const b: CustomerB = { ...customer, cartId: cart.id }
      s.keep('customerB', b)
      return `customer ${b.id}: cart ${b.cartId}`
    }),

    step(
      'B reads itself',
      endpointId('GET /V1/customers/me'),
      async (s: StepScope<MineIsolationState>) => {
        const a = s.need('customerA')
        const b = s.need('customerB')
        const call: SpecCall = { method: 'GET', path: '/V1/customers/me', actor: { token: b.token } }
        const answer = await s.call(call)
        s.expectSuccess(call, answer)
        if (!isObject(answer.body)) s.fail(`the answer is not an object: ${describeAnswer(answer)}`)
        const email = answer.body.email
        // The customer's fields are not shown: B is told from A by the platform's `email`, where the answer has one.
        if (typeof email !== 'string')
          s.notJudged(
            `the answer has no email by which to tell whose record it is: ${describeAnswer(answer)}`,
            'unusable-answer',
          )
        if (email.toLowerCase() === a.email.toLowerCase())
          s.fail(`customer B's token reads customer A (email ${email})`)
        if (email.toLowerCase() !== b.email.toLowerCase())
          s.fail(`customer B's token reads email ${JSON.stringify(email)}, not B's ${b.email}`)
        if (answer.body.id !== undefined && !sameNumber(answer.body.id, b.id))
          s.fail(`customer B's token reads customer ${JSON.stringify(answer.body.id)}, not B (${b.id})`)
        s.keep('customerBRecord', answer.body)
        return `B's token reads B (${b.email}), not A`
      },
      [SELF_RULES.mine],
    ),

    step(
      "B updates A's item through its own cart",
      endpointId('PUT /V1/carts/mine/items/:itemId'),
      async (s: StepScope<MineIsolationState>) => {
        const a = s.need('customerA')
        const b = s.need('customerB')
        const qty = a.qty + 3
        // B names A's item, and A's cart in the body too: a `mine` path takes the cart from the token alone.
        const call: SpecCall = {
          method: 'PUT',
          path: `/V1/carts/mine/items/${a.itemId}`,
          actor: { token: b.token },
          body: { cartItem: { item_id: a.itemId, qty, quote_id: a.cartId, sku: a.sku } },
        }
        const answer = await s.call(call)
        requireRefusalOrSuccess(s, call, answer)
        const cart = await cartOfA(s, a)
        if (!Array.isArray(cart.items))
          s.notJudged(
            `customer A's cart read as the admin (GET /V1/carts/${a.cartId}) lists no items where the platform does, so what B's call did to it is not known`,
            'unusable-answer',
          )
        const items = cart.items.filter(isObject)
        const mine = items.find((i) => sameNumber(i.item_id, a.itemId))
        if (mine === undefined)
          s.fail(`B's call (${describeAnswer(answer)}) took item ${a.itemId} out of customer A's cart ${a.cartId}`)
        if (!sameNumber(mine.qty, a.qty))
          s.fail(
            `B's call (${describeAnswer(answer)}) changed customer A's item ${a.itemId}: qty ${JSON.stringify(mine.qty)} in A's cart ${a.cartId}, where A put ${a.qty} (B asked for ${qty})`,
          )
        if (
          isSuccess(answer) &&
          isObject(answer.body) &&
          answer.body.quote_id !== undefined &&
          sameNumber(answer.body.quote_id, a.cartId)
        ) {
          s.fail(
            `B's call answered an item of customer A's cart ${a.cartId} (quote_id ${JSON.stringify(answer.body.quote_id)}), not of B's own cart ${b.cartId}`,
          )
        }
        return `customer A's item ${a.itemId} unchanged (qty ${a.qty}); ${outcome(answer, 'cart')}`
      },
      [SELF_RULES.mine],
    ),

    step(
      'B assigns its billing address',
      endpointId('POST /V1/carts/mine/billing-address'),
      async (s: StepScope<MineIsolationState>) => {
        const a = s.need('customerA')
        const b = s.need('customerB')
        const address = s.fx.builders.address('isolation B billing', b.email)
        const call: SpecCall = {
          method: 'POST',
          path: '/V1/carts/mine/billing-address',
          actor: { token: b.token },
          body: { address, cartId: a.cartId },
        }
        const answer = await s.call(call)
        requireRefusalOrSuccess(s, call, answer)
        const read = await s.setupCall(
          "read customer A's billing address as the admin",
          { method: 'GET', path: `/V1/carts/${a.cartId}/billing-address`, actor: 'admin' },
          (x) => x.status === 200,
        )
        if (addressDifferences(address, read.body).length === 0)
          s.fail(`B's billing address landed on customer A's cart ${a.cartId}`)
        const changed = addressDifferences(a.billing, read.body)
        if (changed.length > 0)
          s.fail(
            `customer A's billing address changed after B's call (${describeAnswer(answer)}): ${changed.join('; ')}`,
          )
        return `customer A's billing address unchanged; ${outcome(answer, 'cart')}`
      },
      [SELF_RULES.mine],
    ),

    step(
      'B changes its firstname',
      endpointId('PUT /V1/customers/me'),
      async (s: StepScope<MineIsolationState>) => {
        const a = s.need('customerA')
        const b = s.need('customerB')
        const me = s.need('customerBRecord')
        const firstname = different(`Renamed${s.ctx.session.seed.runId}`, a.firstname)
        // B's own record, with A's id: a `me` path takes the customer from the token alone.
        const call: SpecCall = {
          method: 'PUT',
          path: '/V1/customers/me',
          actor: { token: b.token },
          body: { customer: { ...me, id: a.id, firstname } },
        }
        const answer = await s.call(call)
        requireRefusalOrSuccess(s, call, answer)
        const read = await s.setupCall(
          'read customer A as the admin',
          { method: 'GET', path: `/V1/customers/${a.id}`, actor: 'admin' },
          (x) => x.status === 200 && isObject(x.body),
        )
        const record = read.body as Record<string, unknown>
        const wrong: string[] = []
        if (record.firstname !== a.firstname)
          wrong.push(`firstname ${JSON.stringify(record.firstname ?? null)} (was ${JSON.stringify(a.firstname)})`)
        if (typeof record.email === 'string' && record.email.toLowerCase() !== a.email.toLowerCase())
          wrong.push(`email ${JSON.stringify(record.email)} (was ${a.email})`)
        if (wrong.length > 0)
          s.fail(`B's call (${describeAnswer(answer)}) changed customer A ${a.id}: ${wrong.join(', ')}`)
        if (
          isSuccess(answer) &&
          isObject(answer.body) &&
          answer.body.id !== undefined &&
          !sameNumber(answer.body.id, b.id)
        ) {
          s.fail(`B's call answered customer ${JSON.stringify(answer.body.id)}, not B (${b.id})`)
        }
        return `customer A unchanged; ${outcome(answer, 'account')}`
      },
      [SELF_RULES.mine],
    ),
  ],
}
