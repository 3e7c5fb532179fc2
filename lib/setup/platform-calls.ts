/**
 * What the run calls that the spec does not list: the platform's own endpoints its set-up, its workflows and its
 * cleanup need — to order, invoice and ship, to read an order or a cart back, to make the rules and classes a valid
 * request names, to find the shop's own data in read-only mode, and to remove what the run made. Paths, bodies and
 * answers are the platform's conventions (the spec shows none of them).
 *
 * The contract another implementation must meet, beside the spec, to be judged fully: where a shop does not serve
 * an entry, what needs it is not judged (set-up failed, never a failure of the shop), and its cleanup leaves what it
 * cannot remove. Every such call is sent through an entry here (`platformCall`): a run against the reference target
 * sends nothing that is neither a catalog row nor an entry (platform-calls.test.ts); `--dry-run` lists the table.
 */
import { fillTemplate } from '../spec/paths.ts'
import type { AccessClass, HttpMethod } from '../spec/types.ts'

export interface PlatformCall {
  method: HttpMethod
  /**
   * Below `/rest/{store}` like the spec's paths, parameters as `:name`; under `/async/bulk/V1/`, a write of a spec
   * route queued through the platform's asynchronous bulk interface (its body a list of the route's bodies).
   */
  path: string
  /** The caller the run sends it as, in the spec's classes: the shop must let that caller through. */
  access: AccessClass
  /** What the run needs it for. */
  for: string
}

export const PLATFORM_CALLS = {
  createGuestCart: {
    method: 'POST',
    path: '/V1/guest-carts',
    access: 'anon',
    for: 'a guest cart, for the guest orders the sales checks and workflows invoice, ship and refund',
  },
  addGuestCartItem: {
    method: 'POST',
    path: '/V1/guest-carts/:cartId/items',
    access: 'anon',
    for: 'puts the product in a guest cart',
  },
  readGuestCart: {
    method: 'GET',
    path: '/V1/guest-carts/:cartId',
    access: 'anon',
    for: 'reads a guest cart back: the addresses the guest-checkout workflow and the billing-address check judge, or the item an add whose answer never came may have made',
  },
  addMineCartItem: {
    method: 'POST',
    path: '/V1/carts/mine/items',
    access: 'self',
    for: "puts the product in a customer's own cart",
  },
  readMineCart: {
    method: 'GET',
    path: '/V1/carts/mine',
    access: 'self',
    for: "reads a customer's cart: the item an add whose answer never came may have made; in read-only mode, the configured customer's cart, which the self cart reads name",
  },
  readOrder: {
    method: 'GET',
    path: '/V1/orders/:id',
    access: 'admin',
    for: 'reads an order back: its items, to invoice, ship and refund them; its addresses, which the workflows judge',
  },
  invoiceOrder: {
    method: 'POST',
    path: '/V1/order/:orderId/invoice',
    access: 'admin',
    for: 'an invoice: what the invoice refund and the invoice reads need',
  },
  shipOrder: {
    method: 'POST',
    path: '/V1/order/:orderId/ship',
    access: 'admin',
    for: 'a shipment: what the shipment reads and its label need',
  },
  createSalesRule: {
    method: 'POST',
    path: '/V1/salesRules',
    access: 'admin',
    for: "a sales rule of the run's own, whose coupon the coupon calls name",
  },
  createCoupon: {
    method: 'POST',
    path: '/V1/coupons',
    access: 'admin',
    for: 'a coupon of that rule, for the cart coupon calls',
  },
  createTaxClass: {
    method: 'POST',
    path: '/V1/taxClasses',
    access: 'admin',
    for: "tax classes of the run's own, which the tax class and tax rule calls name",
  },
  scheduleBulk: {
    method: 'POST',
    path: '/async/bulk/V1/products/base-prices-information',
    access: 'admin',
    for: "a bulk operation of the run's own, which the bulk status reads name: a read of the main product's price queued through the asynchronous bulk interface (202 and the bulk's uuid; it makes nothing when it runs)",
  },
  searchCarts: {
    method: 'GET',
    path: '/V1/carts/search',
    access: 'admin',
    for: "read-only mode: an active cart of the shop's, for the admin cart reads",
  },
  searchCreditmemos: {
    method: 'GET',
    path: '/V1/creditmemos',
    access: 'admin',
    for: "read-only mode: a credit memo of the shop's, for the credit memo reads",
  },
  searchShipments: {
    method: 'GET',
    path: '/V1/shipments',
    access: 'admin',
    for: "read-only mode: a shipment of the shop's, for the shipment reads",
  },
  searchTaxRates: {
    method: 'GET',
    path: '/V1/taxRates/search',
    access: 'admin',
    for: "read-only mode: a tax rate of the shop's, for the tax rate reads",
  },
  searchOrders: {
    method: 'GET',
    path: '/V1/orders',
    access: 'admin',
    for: "finds an order whose placement got no answer (by its cart, among the orders of its e-mail), to go on with it; cleanup: names the run's orders, which nothing removes, by their e-mail",
  },
  deleteProduct: {
    method: 'DELETE',
    path: '/V1/products/:sku',
    access: 'admin',
    for: "cleanup: removes the run's products",
  },
  deleteCustomer: {
    method: 'DELETE',
    path: '/V1/customers/:customerId',
    access: 'admin',
    for: "cleanup: removes the run's customers",
  },
  deleteCategory: {
    method: 'DELETE',
    path: '/V1/categories/:categoryId',
    access: 'admin',
    for: "cleanup: removes the run's categories",
  },
  deleteProductAttribute: {
    method: 'DELETE',
    path: '/V1/products/attributes/:attributeCode',
    access: 'admin',
    for: "cleanup: removes the run's product attributes",
  },
  deleteAttributeGroup: {
    method: 'DELETE',
    path: '/V1/products/attribute-sets/groups/:groupId',
    access: 'admin',
    for: "cleanup: removes the run's attribute groups",
  },
  deleteCmsBlock: {
    method: 'DELETE',
    path: '/V1/cmsBlock/:blockId',
    access: 'admin',
    for: "cleanup: removes the run's CMS blocks",
  },
  deleteCmsPage: {
    method: 'DELETE',
    path: '/V1/cmsPage/:pageId',
    access: 'admin',
    for: "cleanup: removes the run's CMS pages",
  },
  deleteCustomerGroup: {
    method: 'DELETE',
    path: '/V1/customerGroups/:id',
    access: 'admin',
    for: "cleanup: removes the run's customer groups",
  },
  deleteTaxRate: {
    method: 'DELETE',
    path: '/V1/taxRates/:rateId',
    access: 'admin',
    for: "cleanup: removes the run's tax rates",
  },
  deleteTaxClass: {
    method: 'DELETE',
    path: '/V1/taxClasses/:taxClassId',
    access: 'admin',
    for: "cleanup: removes the run's tax classes",
  },
  deleteTaxRule: {
    method: 'DELETE',
    path: '/V1/taxRules/:ruleId',
    access: 'admin',
    for: "cleanup: removes the run's tax rules",
  },
  deleteSalesRule: {
    method: 'DELETE',
    path: '/V1/salesRules/:ruleId',
    access: 'admin',
    for: "cleanup: removes the run's sales rules",
  },
  deleteCoupon: {
    method: 'DELETE',
    path: '/V1/coupons/:couponId',
    access: 'admin',
    for: "cleanup: removes the run's coupons",
  },
  deleteInventoryStock: {
    method: 'DELETE',
    path: '/V1/inventory/stocks/:stockId',
    access: 'admin',
    for: "cleanup: removes the run's inventory stocks",
  },
} as const satisfies Record<string, PlatformCall>

export type PlatformCallName = keyof typeof PLATFORM_CALLS

/**
 * The call of an entry, its path parameters filled (each URL-encoded as one segment); a parameter not given is a bug of
 * the caller.
 */
export function platformCall(
  name: PlatformCallName,
  params: Readonly<Record<string, string | number>> = {},
): { method: HttpMethod; path: string } {
  const { method, path } = PLATFORM_CALLS[name]
  return {
    method,
    path: fillTemplate(path, (param) => {
      const value = params[param]
      if (value === undefined) throw new Error(`platformCall ${name}: no value for :${param}`)
      return value
    }),
  }
}
