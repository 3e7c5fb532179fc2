/** An order shipped, and the label of its shipment read: a JSON string (empty when there is no label). */
import { invoiceOrder, type SalesState } from './sales-steps.ts'
import { CATALOG_READ_RULES } from '../spec/rules.ts'
import { step, type SpecCall, type StepScope } from './steps.ts'
import type { Workflow } from './types.ts'
import { endpointId } from '../spec/catalog/index.ts'

/** What the steps hand on: the sales steps' order and invoice, and the shipment made. */
interface ShipmentLabelState extends SalesState {
  shipmentId: number
}

export const shipmentLabelWorkflow: Workflow<ShipmentLabelState> = {
  name: 'shipment-label',
  module: 'sales-tax-tfa',
  description:
    'A guest order is invoiced and shipped; the label of the shipment reads as a JSON string ("" when the shipment has none, as the platform sends it).',
  spec: ['Endpoints › Endpoints with detailed shape'],
  steps: [
    step('place a guest order', undefined, async (s: StepScope<ShipmentLabelState>) => {
      const placed = await s.setup(() => s.fx.guestOrder('shipment label', { qty: 1 }))
      s.keep('orderId', placed.orderId)
      return `guest order ${placed.orderId} placed`
    }),

    step('invoice the order', undefined, async (s: StepScope<ShipmentLabelState>) =>
      invoiceOrder(s, s.need('orderId')),
    ),

    step('ship the order', undefined, async (s: StepScope<ShipmentLabelState>) => {
      const orderId = s.need('orderId')
      const items = s.need('orderItems').map((i) => ({ order_item_id: i.item_id, qty: i.qty_ordered }))
      const id = await s.setup(() => s.fx.ship(orderId, items))
      s.keep('shipmentId', id)
      return `order ${orderId} shipped: shipment ${id}`
    }),

    step(
      'read the shipment label',
      endpointId('GET /V1/shipment/:id/label'),
      async (s: StepScope<ShipmentLabelState>) => {
        const id = s.need('shipmentId')
        const call: SpecCall = { method: 'GET', path: `/V1/shipment/${id}/label`, actor: 'admin' }
        const answer = await s.call(call)
        s.expectSuccess(call, answer)
        if (!answer.json)
          s.fail(
            `the answer is not JSON (the spec's string is sent as a JSON string, e.g. ""): ${JSON.stringify(answer.text.slice(0, 80))}`,
          )
        s.judgeAnswerOf(endpointId('GET /V1/shipment/:id/label'), answer.body)
        const label = answer.body as string
        return label === ''
          ? `shipment ${id} has no label: the empty JSON string, as the platform sends it`
          : `shipment ${id} label: a JSON string of ${label.length} characters`
      },
      [CATALOG_READ_RULES.label],
    ),
  ],
}
