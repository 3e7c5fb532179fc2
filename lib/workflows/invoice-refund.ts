/** A zero-total order paid with a method that can refund per invoice, refunded through its invoice. */
import { invoiceOrder, readCreditmemo, refund, wholeOrder, type SalesState } from './sales-steps.ts'
import { SALES_RULES } from '../spec/rules.ts'
import { step, type SpecCall, type StepScope } from './steps.ts'
import type { Workflow } from './types.ts'
import { endpointId } from '../spec/catalog/index.ts'

export const invoiceRefundWorkflow: Workflow<SalesState> = {
  name: 'invoice-refund',
  module: 'sales-tax-tfa',
  description:
    'A zero-total guest order paid with the configured invoice-refund payment method is invoiced and refunded through its invoice; the credit memo names the invoice and the quantities refunded.',
  spec: [
    'Endpoints › Endpoints with detailed shape',
    'Resources and their fields › Credit memo (`CreditmemoInterface`, body key `entity`)',
    'Resources and their fields › Refund request parts',
  ],
  steps: [
    step('place a zero-total order', undefined, async (s: StepScope<SalesState>) => {
      const fx = s.ctx.session.seed.purchase
      const placed = await s.setup(async () => {
        try {
          return await s.fx.guestOrder('invoice refund', { zeroTotal: true, qty: 1 })
        } catch (err) {
          if (err instanceof Error) {
            err.message += ` (a zero-total order paid with "${fx.invoiceRefundPaymentMethod}" from setting SHOP_INVOICE_REFUND_PAYMENT_METHOD, shipped ${fx.freeShipping.carrier}/${fx.freeShipping.method} from setting SHOP_FREE_SHIPPING_METHOD)`
          }
          throw err
        }
      })
      s.keep('orderId', placed.orderId)
      return `guest order ${placed.orderId} placed with a zero total, paid with ${fx.invoiceRefundPaymentMethod}`
    }),

    step('invoice the order', undefined, async (s: StepScope<SalesState>) => invoiceOrder(s, s.need('orderId'))),

    step(
      'refund the invoice',
      endpointId('POST /V1/invoice/:invoiceId/refund'),
      async (s: StepScope<SalesState>) => {
        const orderId = s.need('orderId')
        const invoiceId = s.need('invoiceId')
        const refunded = wholeOrder(s.need('orderItems'))
        const call: SpecCall = {
          method: 'POST',
          path: `/V1/invoice/${invoiceId}/refund`,
          actor: 'admin',
          body: { items: refunded, isOnline: false, notify: false, appendComment: false },
        }
        const id = await refund(s, call, {
          orderId,
          setting: 'SHOP_INVOICE_REFUND_PAYMENT_METHOD',
          paymentMethod: s.ctx.session.seed.purchase.invoiceRefundPaymentMethod,
        })
        s.keep('refundedItems', refunded)
        return `invoice ${invoiceId} refunded: credit memo ${id}`
      },
      [SALES_RULES.refund],
    ),

    step(
      'read the credit memo',
      endpointId('GET /V1/creditmemo/:id'),
      async (s: StepScope<SalesState>) =>
        readCreditmemo(s, {
          id: s.need('creditmemoId'),
          orderId: s.need('orderId'),
          invoiceId: s.need('invoiceId'),
          items: s.need('refundedItems'),
        }),
      [SALES_RULES.creditmemoRead],
    ),
  ],
}
