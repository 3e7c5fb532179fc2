/**
 * A guest checkout around the guest billing-address assignment: `useForShipping` honoured (and not applied
 * when false), and the order placed carries the billing address sent.
 */
import { describeAnswer, toId, type GuestCart } from '../setup/provision.ts'
import { CHECKOUT_RULES } from '../spec/rules.ts'
import type { AddressDraft } from '../setup/builders.ts'
import { type SalesState } from './sales-steps.ts'
import { addressDifferences, cartShippingAddress, step, type SpecCall, type StepScope } from './steps.ts'
import type { Workflow } from './types.ts'
import { isObject } from '../base/is-object.ts'
import { endpointId } from '../spec/catalog/index.ts'
import { platformCall } from '../setup/platform-calls.ts'

const BILLING = endpointId('POST /V1/guest-carts/:cartId/billing-address')
const PLACE = endpointId('PUT /V1/guest-carts/:cartId/order')

async function assignBilling(
  s: StepScope<GuestCheckoutState>,
  cart: GuestCart,
  address: AddressDraft,
  useForShipping: boolean,
): Promise<number> {
  const call: SpecCall = {
    method: 'POST',
    path: `/V1/guest-carts/${cart.maskedId}/billing-address`,
    actor: 'guest',
    body: { address, useForShipping },
  }
  const answer = await s.call(call)
  s.expectSuccess(call, answer)
  return s.judgeId(answer.body, 'the answer (the address id)')
}

/** The guest cart read back (`GET /V1/guest-carts/:cartId`, a platform call the spec does not list). */
async function readCart(s: StepScope<GuestCheckoutState>, cart: GuestCart): Promise<Record<string, unknown>> {
  const answer = await s.setupCall(
    'read the guest cart back',
    { ...platformCall('readGuestCart', { cartId: cart.maskedId }), actor: 'guest' },
    (a) => a.status === 200 && isObject(a.body),
  )
  return answer.body as Record<string, unknown>
}

/**
 * The cart's addresses where the platform puts them (`billing_address`, and the shipping address of its first
 * shipping assignment). The read is a platform call: a cart without them there is not judged, never failed.
 */
function addressesOf(
  s: StepScope<GuestCheckoutState>,
  cart: Record<string, unknown>,
  which: 'billing' | 'both',
): { billing: unknown; shipping: unknown } {
  const billing = cart.billing_address
  const shipping = cartShippingAddress(cart)
  if (!isObject(billing))
    s.notJudged(
      'the cart read back (GET /V1/guest-carts/:cartId, a platform call) has no billing_address where the platform puts it',
      'unusable-answer',
    )
  if (which === 'both' && !isObject(shipping))
    s.notJudged(
      'the cart read back (GET /V1/guest-carts/:cartId, a platform call) has no shipping address where the platform puts it (extension_attributes.shipping_assignments[0].shipping.address)',
      'unusable-answer',
    )
  return { billing, shipping }
}

async function newGuestCart(s: StepScope<GuestCheckoutState>, label: string): Promise<GuestCart> {
  const product = await s.setup(() => s.fx.mainProduct())
  const cart = await s.setup(() => s.fx.guestCart(label))
  await s.setup(() => s.fx.addItem(cart, product.sku, 1))
  return cart
}

/** What the steps hand on: the two guest carts, the billing address sent, and the order placed. */
interface GuestCheckoutState extends Pick<SalesState, 'orderId'> {
  cart: GuestCart
  billingAddress: AddressDraft
  secondCart: GuestCart
}

export const guestCheckoutWorkflow: Workflow<GuestCheckoutState> = {
  name: 'guest-checkout',
  module: 'quote',
  description:
    'A guest cart gets a billing address with useForShipping true (the shipping address becomes it), a second cart one with useForShipping false (it does not); the first cart is ordered and the order carries the billing address.',
  spec: [
    'Endpoints › Endpoints with detailed shape',
    'Resources and their fields › Quote billing / cart address (`address` in the guest billing-address body)',
    'Authentication',
  ],
  steps: [
    step('create a guest cart with an item', undefined, async (s: StepScope<GuestCheckoutState>) => {
      const cart = await newGuestCart(s, 'guest checkout')
      s.keep('cart', cart)
      return 'guest cart created with the main product × 1'
    }),

    step(
      'assign the billing address for shipping too',
      BILLING,
      async (s: StepScope<GuestCheckoutState>) => {
        const address = s.fx.builders.address('guest checkout billing')
        s.keep('billingAddress', address)
        const id = await assignBilling(s, s.need('cart'), address, true)
        return `billing address assigned with useForShipping true: address ${id}`
      },
      [CHECKOUT_RULES.billingAssigned],
    ),

    step(
      'shipping address is the billing address',
      BILLING,
      async (s: StepScope<GuestCheckoutState>) => {
        const sent = s.need('billingAddress')
        const addresses = addressesOf(s, await readCart(s, s.need('cart')), 'both')
        const billing = addressDifferences(sent, addresses.billing)
        if (billing.length > 0)
          s.fail(`the cart read back has another billing address than the one assigned: ${billing.join('; ')}`)
        const shipping = addressDifferences(sent, addresses.shipping)
        if (shipping.length > 0)
          s.fail(
            `useForShipping true not honoured: the cart's shipping address (extension_attributes.shipping_assignments[0].shipping.address) is not the billing address sent: ${shipping.join('; ')}`,
          )
        return 'the cart read back has the billing address sent as both billing and shipping address'
      },
      [CHECKOUT_RULES.useForShipping],
    ),

    step('create a second guest cart', undefined, async (s: StepScope<GuestCheckoutState>) => {
      s.keep('secondCart', await newGuestCart(s, 'guest checkout second'))
      return 'second guest cart created with the main product × 1'
    }),

    step(
      'billing address not used for shipping',
      BILLING,
      async (s: StepScope<GuestCheckoutState>) => {
        const address = s.fx.builders.address('guest checkout second billing')
        const cart = s.need('secondCart')
        const id = await assignBilling(s, cart, address, false)
        const addresses = addressesOf(s, await readCart(s, cart), 'billing')
        const billing = addressDifferences(address, addresses.billing)
        if (billing.length > 0)
          s.fail(`the second cart read back has another billing address than the one assigned: ${billing.join('; ')}`)
        if (addressDifferences(address, addresses.shipping).length === 0)
          s.fail("useForShipping false not honoured: the second cart's shipping address was set to the billing address")
        return `billing address ${id} assigned with useForShipping false; the shipping address was left alone`
      },
      [CHECKOUT_RULES.billingAssigned, CHECKOUT_RULES.useForShipping],
    ),

    step(
      'set the shipping method',
      endpointId('POST /V1/guest-carts/:cartId/shipping-information'),
      async (s: StepScope<GuestCheckoutState>) => {
        const cart = s.need('cart')
        const address = s.need('billingAddress')
        const { carrier, method } = s.ctx.session.seed.purchase.shipping
        const call: SpecCall = {
          method: 'POST',
          path: `/V1/guest-carts/${cart.maskedId}/shipping-information`,
          actor: 'guest',
          body: {
            addressInformation: {
              shipping_address: address,
              billing_address: address,
              shipping_carrier_code: carrier,
              shipping_method_code: method,
            },
          },
        }
        const answer = await s.call(call)
        s.expectSuccess(call, answer, {
          refusal: (a) =>
            `the target refused the shipping information (body per the platform conventions, shipping method ${carrier}/${method} from setting SHOP_SHIPPING_METHOD): ${describeAnswer(a)}`,
        })
        return `shipping ${carrier}/${method} set`
      },
      [CHECKOUT_RULES.guestShipping],
    ),

    step(
      'place the order',
      PLACE,
      async (s: StepScope<GuestCheckoutState>) => {
        const cart = s.need('cart')
        const paymentMethod = s.ctx.session.seed.purchase.paymentMethod
        const call: SpecCall = {
          method: 'PUT',
          path: `/V1/guest-carts/${cart.maskedId}/order`,
          actor: 'guest',
          body: { paymentMethod: { method: paymentMethod } },
        }
        const answer = await s.call(call, { kind: 'order', label: 'order guest checkout' })
        s.expectSuccess(call, answer, {
          refusal: (a) =>
            `the target refused to place the order with payment method "${paymentMethod}" (setting SHOP_PAYMENT_METHOD): ${describeAnswer(a)}`,
        })
        // What the guest placement returns is not shown (the detail table gives the admin one's); the id is needed to
        // go on.
        const orderId = toId(answer.body)
        if (orderId === undefined)
          s.notJudged(
            `the answer carries no order id to read the order by: ${describeAnswer(answer)}`,
            'unusable-answer',
          )
        s.made(orderId)
        s.keep('orderId', orderId)
        return `order ${orderId} placed`
      },
      [CHECKOUT_RULES.guestOrder],
    ),

    step(
      'order carries the billing address',
      PLACE,
      async (s: StepScope<GuestCheckoutState>) => {
        const orderId = s.need('orderId')
        const order = await s.readOrder(orderId)
        if (!isObject(order.billing_address))
          s.notJudged(
            `order ${orderId} read back (GET /V1/orders/${orderId}, a platform call) has no billing_address where the platform puts it`,
            'unusable-answer',
          )
        const wrong = addressDifferences(s.need('billingAddress'), order.billing_address)
        if (wrong.length > 0)
          s.fail(
            `order ${orderId} read back (GET /V1/orders/${orderId}) does not carry the billing address sent: ${wrong.join('; ')}`,
          )
        return `order ${orderId} carries the billing address sent`
      },
      [CHECKOUT_RULES.guestOrder],
    ),
  ],
}
