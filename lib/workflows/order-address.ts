/** An order's billing address saved with a new city through `PUT /V1/orders/:parent_id`. */
import { type SalesState } from './sales-steps.ts'
import { judgeCarried } from '../checks/carried-values.ts'
import { SHAPE_RULES } from '../spec/rules.ts'
import { tabledValues } from '../spec/shapes.ts'
import { different, step, type SpecCall, type StepScope } from './steps.ts'
import type { Workflow } from './types.ts'
import { isObject } from '../base/is-object.ts'
import { scalarText } from '../base/text.ts'
import { endpointId } from '../spec/catalog/index.ts'

const SAVE = endpointId('PUT /V1/orders/:parent_id')

/** What the steps hand on: the order, its billing address as read back, and the city saved in it. */
interface OrderAddressState extends Pick<SalesState, 'orderId'> {
  billingAddress: Record<string, unknown>
  newCity: string
}

export const orderAddressWorkflow: Workflow<OrderAddressState> = {
  name: 'order-address',
  module: 'sales-tax-tfa',
  description:
    "A guest order's billing address is saved with a new city; the answer is the saved order address, and the order read back has the new city.",
  spec: [
    'Endpoints › Endpoints with detailed shape',
    'Resources and their fields › Order address (`OrderAddressInterface`, body key `entity`)',
  ],
  steps: [
    step('place a guest order', undefined, async (s: StepScope<OrderAddressState>) => {
      const placed = await s.setup(() => s.fx.guestOrder('order address', { qty: 1 }))
      const billing = placed.order.billing_address
      if (!isObject(billing) || billing.entity_id === undefined)
        s.notJudged(
          `order ${placed.orderId} read back (GET /V1/orders/${placed.orderId}) has no billing_address with an entity_id`,
          'unusable-answer',
        )
      s.keep('orderId', placed.orderId)
      s.keep('billingAddress', billing)
      return `guest order ${placed.orderId} placed; billing address ${scalarText(billing.entity_id)}`
    }),

    step(
      'save the billing address with a new city',
      SAVE,
      async (s: StepScope<OrderAddressState>) => {
        const orderId = s.need('orderId')
        const billing = s.need('billingAddress')
        const city = different(s.fx.builders.address('order address new city').city, billing.city)
        s.keep('newCity', city)
        const entity: Record<string, unknown> = { ...billing, parent_id: orderId, city }
        const call: SpecCall = { method: 'PUT', path: `/V1/orders/${orderId}`, actor: 'admin', body: { entity } }
        const answer = await s.call(call)
        s.expectSuccess(call, answer)
        s.judge(answer.body, { kind: 'tabled', shape: 'orderAddress' }, 'the answer')
        const missing = judgeCarried('the saved address answered', answer.body, {
          values: tabledValues('orderAddress', entity),
          rule: SHAPE_RULES.savedAddress,
        })
        if (missing !== undefined) s.fail(missing)
        return `billing address ${scalarText(billing.entity_id)} saved with city ${JSON.stringify(city)}; the answer is the order address saved`
      },
      [SHAPE_RULES.savedAddress],
    ),

    step(
      'order has the new city',
      SAVE,
      async (s: StepScope<OrderAddressState>) => {
        const orderId = s.need('orderId')
        const city = s.need('newCity')
        const order = await s.readOrder(orderId)
        const billing = order.billing_address
        const seen = isObject(billing) ? billing.city : undefined
        if (seen !== city)
          s.fail(
            `order ${orderId} read back (GET /V1/orders/${orderId}) has billing city ${JSON.stringify(seen ?? null)}, not the saved ${JSON.stringify(city)}`,
          )
        return `order ${orderId} read back has the new billing city`
      },
      [SHAPE_RULES.savedAddress],
    ),
  ],
}
