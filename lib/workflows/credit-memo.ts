/**
 * A customer's order refunded offline, and the credit memo it makes through its whole life: read, commented,
 * emailed, cancelled.
 */
import { describeAnswer, toId, type MadeCustomer } from '../setup/provision.ts'
import { SALES_RULES } from '../spec/rules.ts'
import type { AddressDraft } from '../setup/builders.ts'
import { invoiceOrder, readCreditmemo, refund, type RefundedItem, type SalesState } from './sales-steps.ts'
import { listItems, step, type SpecCall, type StepScope } from './steps.ts'
import type { Workflow } from './types.ts'
import { defined } from '../base/defined.ts'
import { isObject } from '../base/is-object.ts'
import { endpointId } from '../spec/catalog/index.ts'

/** What a 2.4.x platform answers to every cancel (platform conventions, "Where the platform's own releases differ"). */
const KNOWN_CANCEL_REFUSAL = /can ?not cancel/i

/** What the steps hand on: the buyer, the cart, the address sent, the sales steps' ids, and the comment added. */
interface CreditMemoState extends SalesState {
  customer: MadeCustomer
  cartId: number
  address: AddressDraft
  comment: string
}

export const creditMemoWorkflow: Workflow<CreditMemoState> = {
  name: 'credit-memo',
  module: 'sales-tax-tfa',
  description:
    'A registered customer buys the main product (qty 2), the order is invoiced and refunded offline for one unit; the credit memo it makes is read, commented, emailed and cancelled.',
  spec: [
    'Endpoints › Endpoints with detailed shape',
    'Resources and their fields › Credit memo (`CreditmemoInterface`, body key `entity`)',
    'Resources and their fields › Refund request parts',
    'States and transitions',
    'Events',
  ],
  steps: [
    step('register a customer', endpointId('POST /V1/customers'), async (s: StepScope<CreditMemoState>) => {
      const customer = await s.setup(() => s.fx.customer('credit memo buyer'))
      s.keep('customer', customer)
      return `customer ${customer.id} registered, with a token of its own`
    }),

    step(
      'create the customer cart',
      endpointId('POST /V1/carts/mine'),
      async (s: StepScope<CreditMemoState>) => {
        const customer = s.need('customer')
        const call: SpecCall = { method: 'POST', path: '/V1/carts/mine', actor: { token: customer.token } }
        const answer = await s.call(call, { kind: 'cart', label: 'customer cart credit memo' })
        s.expectSuccess(call, answer)
        // What this call returns is not shown; the platform's cart id is what the next steps need.
        const id = toId(answer.body)
        if (id === undefined)
          s.notJudged(
            `the answer carries no cart id to go on with (the spec does not show what this call returns): ${describeAnswer(answer)}`,
            'unusable-answer',
          )
        s.made(id)
        s.keep('cartId', id)
        return `cart ${id} created for customer ${customer.id}`
      },
      [SALES_RULES.cartCreated],
    ),

    step('add the main product (qty 2)', undefined, async (s: StepScope<CreditMemoState>) => {
      const customer = s.need('customer')
      const product = await s.setup(() => s.fx.mainProduct())
      const item = await s.setup(() =>
        s.fx.addItem({ kind: 'mine', token: customer.token, id: s.need('cartId') }, product.sku, 2),
      )
      return `${product.sku} × 2 in the cart (item ${item.item_id})`
    }),

    step(
      'estimate shipping methods',
      endpointId('POST /V1/carts/mine/estimate-shipping-methods'),
      async (s: StepScope<CreditMemoState>) => {
        const customer = s.need('customer')
        const { carrier, method } = s.ctx.session.seed.purchase.shipping
        const address = s.fx.builders.address('credit memo shipping', customer.email)
        s.keep('address', address)
        const call: SpecCall = {
          method: 'POST',
          path: '/V1/carts/mine/estimate-shipping-methods',
          actor: { token: customer.token },
          body: { address, cartId: s.need('cartId') },
        }
        const answer = await s.call(call)
        s.expectSuccess(call, answer)
        s.judgeAnswerOf(endpointId('POST /V1/carts/mine/estimate-shipping-methods'), answer.body)
        const offered = (answer.body as unknown[]).filter(isObject)
        const names = offered.map((m) => `${String(m.carrier_code)}/${String(m.method_code)}`)
        if (!offered.some((m) => m.carrier_code === carrier && m.method_code === method)) {
          s.notJudged(
            `the target does not offer the configured shipping method ${carrier}/${method} (setting SHOP_SHIPPING_METHOD) for this cart; it offers ${names.length > 0 ? names.join(', ') : 'none'}`,
            'target-refused',
          )
        }
        return `a JSON array of ${offered.length} shipping method(s), among them the configured ${carrier}/${method}`
      },
      [SALES_RULES.estimate],
    ),

    step(
      'set shipping and billing information',
      endpointId('POST /V1/carts/mine/shipping-information'),
      async (s: StepScope<CreditMemoState>) => {
        const customer = s.need('customer')
        const address = s.need('address')
        const { carrier, method } = s.ctx.session.seed.purchase.shipping
        const call: SpecCall = {
          method: 'POST',
          path: '/V1/carts/mine/shipping-information',
          actor: { token: customer.token },
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
        return `shipping and billing address set, shipping ${carrier}/${method}`
      },
      [SALES_RULES.shippingInformation],
    ),

    step(
      'place the order',
      endpointId('PUT /V1/carts/mine/order'),
      async (s: StepScope<CreditMemoState>) => {
        const customer = s.need('customer')
        const paymentMethod = s.ctx.session.seed.purchase.paymentMethod
        const call: SpecCall = {
          method: 'PUT',
          path: '/V1/carts/mine/order',
          actor: { token: customer.token },
          body: { paymentMethod: { method: paymentMethod } },
        }
        const answer = await s.call(call, { kind: 'order', label: 'order credit memo' })
        s.expectSuccess(call, answer, {
          refusal: (a) =>
            `the target refused to place the order with payment method "${paymentMethod}" (setting SHOP_PAYMENT_METHOD): ${describeAnswer(a)}`,
        })
        const orderId = s.judgeId(answer.body, 'the answer (the order id)')
        s.made(orderId)
        s.keep('orderId', orderId)
        return `order ${orderId} placed, paid with ${paymentMethod}`
      },
      [SALES_RULES.orderPlaced],
    ),

    step('invoice the order', undefined, async (s: StepScope<CreditMemoState>) => invoiceOrder(s, s.need('orderId'))),

    step(
      'refund one unit offline',
      endpointId('POST /V1/order/:orderId/refund'),
      async (s: StepScope<CreditMemoState>) => {
        const orderId = s.need('orderId')
        const item = defined(
          s.need('orderItems')[0],
          'the first item of the invoiced order (invoiceOrder keeps no empty list)',
        )
        const refunded: RefundedItem[] = [{ order_item_id: item.item_id, qty: 1 }]
        const call: SpecCall = {
          method: 'POST',
          path: `/V1/order/${orderId}/refund`,
          actor: 'admin',
          body: {
            items: refunded,
            notify: false,
            appendComment: true,
            comment: { comment: s.fx.builders.comment('credit memo refund'), is_visible_on_front: 0 },
          },
        }
        const id = await refund(s, call, {
          orderId,
          setting: 'SHOP_PAYMENT_METHOD',
          paymentMethod: s.ctx.session.seed.purchase.paymentMethod,
        })
        s.keep('refundedItems', refunded)
        return `refunded order item ${item.item_id} × 1 offline: credit memo ${id}`
      },
      [SALES_RULES.refund],
    ),

    step(
      'read the credit memo',
      endpointId('GET /V1/creditmemo/:id'),
      async (s: StepScope<CreditMemoState>) =>
        readCreditmemo(s, { id: s.need('creditmemoId'), orderId: s.need('orderId'), items: s.need('refundedItems') }),
      [SALES_RULES.creditmemoRead],
    ),

    step(
      'add a comment',
      endpointId('POST /V1/creditmemo/:id/comments'),
      async (s: StepScope<CreditMemoState>) => {
        const id = s.need('creditmemoId')
        const comment = s.fx.builders.comment('credit memo comment')
        const call: SpecCall = {
          method: 'POST',
          path: `/V1/creditmemo/${id}/comments`,
          actor: 'admin',
          body: { entity: { parent_id: id, comment, is_customer_notified: 0, is_visible_on_front: 0 } },
        }
        const answer = await s.call(call)
        s.expectSuccess(call, answer)
        s.keep('comment', comment)
        return `comment added to credit memo ${id}`
      },
      [SALES_RULES.comment],
    ),

    step(
      'list the comments',
      endpointId('GET /V1/creditmemo/:id/comments'),
      async (s: StepScope<CreditMemoState>) => {
        const id = s.need('creditmemoId')
        const comment = s.need('comment')
        const call: SpecCall = { method: 'GET', path: `/V1/creditmemo/${id}/comments`, actor: 'admin' }
        const answer = await s.call(call)
        s.expectSuccess(call, answer)
        const items = listItems(answer.body)
        if (items === undefined)
          s.fail(`the answer is neither a list nor a search result with items: ${describeAnswer(answer)}`)
        const texts = items.filter(isObject).map((c) => c.comment)
        if (!texts.includes(comment))
          s.fail(
            `the comment added is not listed; the ${texts.length} comment(s) listed: ${texts.map((t) => JSON.stringify(t)).join(', ') || 'none'}`,
          )
        return `the added comment is listed among ${items.length} comment(s)`
      },
      [SALES_RULES.comment],
    ),

    step(
      'email the credit memo',
      endpointId('POST /V1/creditmemo/:id/emails'),
      async (s: StepScope<CreditMemoState>) => {
        const id = s.need('creditmemoId')
        const call: SpecCall = { method: 'POST', path: `/V1/creditmemo/${id}/emails`, actor: 'admin' }
        const answer = await s.call(call)
        s.expectSuccess(call, answer)
        if (answer.body === false)
          s.notJudged(
            `the target answered false: it did not email credit memo ${id} (email sending may be switched off on this shop)`,
            'target-refused',
          )
        return `credit memo ${id} emailed (answered ${answer.text.trim().slice(0, 40) || 'an empty body'})`
      },
      [SALES_RULES.email],
    ),

    step(
      'cancel the credit memo',
      endpointId('PUT /V1/creditmemo/:id'),
      async (s: StepScope<CreditMemoState>) => {
        const id = s.need('creditmemoId')
        const call: SpecCall = { method: 'PUT', path: `/V1/creditmemo/${id}`, actor: 'admin' }
        const answer = await s.call(call)
        const message = isObject(answer.body) && typeof answer.body.message === 'string' ? answer.body.message : ''
        if (answer.status === 400 && KNOWN_CANCEL_REFUSAL.test(message)) {
          s.fail(
            `PUT /V1/creditmemo/${id} answered ${describeAnswer(answer)}: the spec lists this endpoint as cancelling a credit memo. ` +
              'Known platform deviation: 2.4.x releases (seen on 2.4.7) refuse every cancel this way.',
          )
        }
        s.expectSuccess(call, answer)
        if (answer.body === false) s.fail(`PUT /V1/creditmemo/${id} answered false: the credit memo was not cancelled`)
        return `credit memo ${id} cancelled`
      },
      [SALES_RULES.cancel],
    ),
  ],
}
