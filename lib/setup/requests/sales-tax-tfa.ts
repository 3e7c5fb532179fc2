/**
 * Valid requests of the Sales, SalesRule, Tax and TwoFactorAuth endpoints of the spec's list: a sale of the run's
 * own (a guest order, invoiced, shipped and refunded in part: its credit memo and shipment), a tax rate, two tax
 * classes and a tax rule of its own (the rule joins only the run's classes and rate, so no shopper's tax changes),
 * and a sales rule with a coupon (sales-rules.ts). Saves send what the entity has, so every caller may send them.
 * The refunds, the credit memo creation and the order address save are the sales family's (lib/setup/families/
 * sales.ts); in read-only mode the GETs name the first credit memo, shipment or tax rate the shop lists.
 */
import { firstItemId, idText, SetupError, toId, type Provisioner } from '../provision.ts'
import { isObject } from '../../base/is-object.ts'
import { firstListed, ownOrFound } from './shared.ts'
import { ownCoupon, ownSalesRule } from './sales-rules.ts'
import type { RequestRecipe } from './types.ts'
import { SEARCH_PAGE } from './search.ts'
import { endpointId } from '../../spec/catalog/index.ts'
import { platformCall } from '../platform-calls.ts'

/**
 * The run's own sale, made once: its order, invoice, shipment (of all of it) and credit memo (one unit refunded
 * offline).
 */
interface OwnSale {
  orderId: number
  invoiceId: number
  shipmentId: number
  creditmemoId: number
}

function ownSale(fx: Provisioner): Promise<OwnSale> {
  return fx.session.memo('valid request: own sale', async () => {
    const order = await fx.guestOrder('own sale')
    const invoiceId = await fx.invoice(order.orderId)
    const shipmentId = await fx.ship(order.orderId)
    const creditmemoId = await fx.refundOffline(order.orderId, firstItemId(order))
    return { orderId: order.orderId, invoiceId, shipmentId, creditmemoId }
  })
}

/** The id of the run's own sales document, or in read-only mode of the first the shop lists. */
function saleDocument(fx: Provisioner, what: 'credit memo' | 'shipment'): Promise<number> {
  const list = platformCall(what === 'credit memo' ? 'searchCreditmemos' : 'searchShipments').path
  return ownOrFound(
    fx,
    what,
    async () => {
      const sale = await ownSale(fx)
      return what === 'credit memo' ? sale.creditmemoId : sale.shipmentId
    },
    async () => {
      const id = toId((await firstListed(fx, what, list, SEARCH_PAGE)).entity_id)
      if (id === undefined)
        throw new SetupError(`find a ${what}`, `the first ${what} the shop lists has no numeric entity_id`)
      return id
    },
  )
}

/** The run's own tax rate (country US, every postcode), made once; in read-only mode the first the shop lists. */
function ownTaxRate(fx: Provisioner): Promise<{ id: number; code: string; rate: number }> {
  return ownOrFound(
    fx,
    'tax rate',
    () => fx.taxRate('shared'),
    async () => {
      const found = await firstListed(fx, 'tax rate', platformCall('searchTaxRates').path, SEARCH_PAGE)
      const id = toId(found.id)
      if (id === undefined)
        throw new SetupError('find a tax rate', 'the first tax rate the shop lists has no numeric id')
      return { id, code: String(found.code), rate: Number(found.rate) }
    },
  )
}

type ClassType = 'CUSTOMER' | 'PRODUCT'

/** A tax class of the run's own of each type, made once. */
function ownTaxClass(
  fx: Provisioner,
  type: ClassType,
): Promise<{ class_id: number; class_name: string; class_type: ClassType }> {
  return fx.session.memo(`valid request: own ${type} tax class`, async () => {
    const label = `${type.toLowerCase()} tax class shared`
    const taxClass = { class_name: fx.builders.name(label), class_type: type }
    const step = `create a ${type.toLowerCase()} tax class`
    // The platform answers the new class's id (a digit string).
    const { answer } = await fx.create(
      step,
      { ...platformCall('createTaxClass'), actor: 'admin', body: { taxClass } },
      { kind: 'tax class', label, key: taxClass.class_name, idOf: idText },
    )
    const id = toId(answer.body)
    if (id === undefined) throw new SetupError(step, `set-up step "${step}" answered no numeric id`)
    return { ...taxClass, class_id: id }
  })
}

/** The run's own tax rule: its own classes and rate only, so it applies to nothing of the shop's. */
function ownTaxRule(fx: Provisioner): Promise<Record<string, unknown> & { id: number }> {
  return fx.session.memo('valid request: own tax rule', async () => {
    const [customerClass, productClass, rate] = await Promise.all([
      ownTaxClass(fx, 'CUSTOMER'),
      ownTaxClass(fx, 'PRODUCT'),
      ownTaxRate(fx),
    ])
    const rule = {
      code: fx.builders.code('tax rule shared'),
      priority: 0,
      position: 0,
      customer_tax_class_ids: [customerClass.class_id],
      product_tax_class_ids: [productClass.class_id],
      tax_rate_ids: [rate.id],
      calculate_subtotal: false,
    }
    const step = 'create a tax rule'
    // PUT /V1/taxRules without an id creates one.
    const { answer } = await fx.create(
      step,
      { method: 'PUT', path: '/V1/taxRules', actor: 'admin', body: { rule } },
      {
        kind: 'tax rule',
        label: 'tax rule shared',
        key: rule.code,
        idOf: (b) => idText(isObject(b) ? b.id : undefined),
      },
    )
    const id = toId(isObject(answer.body) ? answer.body.id : undefined)
    if (id === undefined) throw new SetupError(step, `set-up step "${step}" answered no numeric id`)
    return { ...rule, id }
  })
}

const creditmemoPath = async (fx: Provisioner) => ({ id: await saleDocument(fx, 'credit memo') })

/**
 * A credit memo of its own for each cancel (a cancel uses it up): a guest order, invoiced, one unit refunded offline.
 */
async function creditmemoToCancel(fx: Provisioner, label: string): Promise<number> {
  const order = await fx.guestOrder(`${label} cancel`)
  await fx.invoice(order.orderId)
  return fx.refundOffline(order.orderId, firstItemId(order))
}

export const salesTaxTfaRecipes: RequestRecipe[] = [
  {
    // "cancel credit memo (`PUT /V1/creditmemo/:id`)": a conforming shop cancels the run's own credit memo. A 2.4.x
    // release refuses every cancel (400 "You can not cancel Credit Memo"): there the admin gets no success, and only a
    // refusal (401/403) of the other callers is read.
    endpoint: endpointId('PUT /V1/creditmemo/:id'),
    prepare: async (fx, label) => ({ actor: 'admin', path: { id: await creditmemoToCancel(fx, label) } }),
  },
  {
    endpoint: endpointId('GET /V1/creditmemo/:id'),
    prepare: async (fx) => ({ actor: 'admin', path: await creditmemoPath(fx) }),
  },
  {
    endpoint: endpointId('GET /V1/creditmemo/:id/comments'),
    prepare: async (fx) => ({ actor: 'admin', path: await creditmemoPath(fx) }),
  },
  {
    endpoint: endpointId('POST /V1/creditmemo/:id/comments'),
    prepare: async (fx, label) => {
      const path = await creditmemoPath(fx)
      return {
        actor: 'admin',
        path,
        body: {
          entity: {
            parent_id: path.id,
            comment: fx.builders.comment(label),
            is_customer_notified: 0,
            is_visible_on_front: 0,
          },
        },
      }
    },
  },
  {
    endpoint: endpointId('POST /V1/creditmemo/:id/emails'),
    // E-mails the credit memo (to the run's own guest address on the reserved domain) again: nothing is used up.
    again: 'reuse',
    prepare: async (fx) => ({ actor: 'admin', path: await creditmemoPath(fx) }),
  },
  {
    endpoint: endpointId('GET /V1/shipment/:id/label'),
    prepare: async (fx) => ({ actor: 'admin', path: { id: await saleDocument(fx, 'shipment') } }),
  },
  {
    endpoint: endpointId('PUT /V1/orders/create'),
    // The run's own order saved by its id alone: the platform's OrderUpdateTest saves an order so, changing nothing.
    again: 'reuse',
    prepare: async (fx) => ({ actor: 'admin', path: {}, body: { entity: { entity_id: (await ownSale(fx)).orderId } } }),
  },
  {
    endpoint: endpointId('PUT /V1/coupons/:couponId'),
    again: 'reuse',
    prepare: async (fx) => {
      const own = await ownCoupon(fx)
      return { actor: 'admin', path: { couponId: own.id }, body: { coupon: own.coupon } }
    },
  },
  {
    endpoint: endpointId('PUT /V1/salesRules/:ruleId'),
    again: 'reuse',
    prepare: async (fx) => {
      const own = await ownSalesRule(fx)
      return { actor: 'admin', path: { ruleId: own.id }, body: { rule: own.rule } }
    },
  },
  {
    endpoint: endpointId('PUT /V1/taxClasses/:classId'),
    again: 'reuse',
    prepare: async (fx) => {
      const own = await ownTaxClass(fx, 'CUSTOMER')
      return { actor: 'admin', path: { classId: own.class_id }, body: { taxClass: own } }
    },
  },
  {
    endpoint: endpointId('PUT /V1/taxRates'),
    // "Create or update": the run's own rate updated with the values it has.
    again: 'reuse',
    prepare: async (fx) => {
      const own = await ownTaxRate(fx)
      return {
        actor: 'admin',
        path: {},
        body: {
          taxRate: {
            id: own.id,
            tax_country_id: 'US',
            tax_region_id: 0,
            tax_postcode: '*',
            rate: own.rate,
            code: own.code,
          },
        },
      }
    },
  },
  {
    endpoint: endpointId('PUT /V1/taxRules'),
    again: 'reuse',
    prepare: async (fx) => ({ actor: 'admin', path: {}, body: { rule: await ownTaxRule(fx) } }),
  },
  {
    endpoint: endpointId('GET /V1/taxRates/:rateId'),
    prepare: async (fx) => ({ actor: 'admin', path: { rateId: (await ownTaxRate(fx)).id } }),
  },
]
