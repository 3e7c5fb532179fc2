/**
 * Valid requests of the other inventory modules: the bulk assign, unassign and transfer calls and the low-quantity
 * thresholds on products of the run's own at the default source and the run's (inventory-api.ts), a source selection
 * for one of them on the default stock, the pickup notice for an order of the run's, and the distance and
 * geocoding look-ups. Platform bodies are the contracts' parameters: `skus`, `sourceCodes`, `originSource`,
 * `destinationSource`, `unassignFromOrigin`; `originSourceCode`, `destinationSourceCode`, `items` [{sku, qty}];
 * `sourceItemConfigurations` [{source_code, sku, notify_stock_qty}]; `inventoryRequest` {stockId, items [{sku,
 * qty}]} and `algorithmCode`; `orderIds`.
 */
import type { Provisioner } from '../provision.ts'
import {
  DEFAULT_SOURCE,
  DEFAULT_STOCK,
  inventoryProduct,
  ownSource,
  putAtSources,
  STOCK_REINDEX,
} from './inventory-api.ts'
import type { RequestRecipe } from './types.ts'
import { SEARCH_PAGE } from './search.ts'
import { endpointId } from '../../spec/catalog/index.ts'
import { defined } from '../../base/defined.ts'

/** The main website (code `base`) is on every install, sold from the default stock: a sales channel to export. */
const SALES_CHANNEL = { salesChannelType: 'website', salesChannelCode: 'base' }

/**
 * Two points (Austin and Houston, TX): the offline distance provider computes the distance from them alone; a
 * default-configured 2.4.7 uses Google's, which needs an API key (NO_SUCCESS_ON_DEFAULT_PLATFORM).
 */
const DISTANCE_QUERY = new URLSearchParams({
  'source[lat]': '30.2672',
  'source[lng]': '-97.7431',
  'destination[lat]': '29.7604',
  'destination[lng]': '-95.3698',
}).toString()

/** An address to geocode (the platform's source-selection address: country, postcode, region, city, street). */
function addressQuery(fx: Provisioner, label: string): string {
  const a = fx.builders.address(label)
  return new URLSearchParams({
    'address[country]': a.country_id,
    'address[postcode]': a.postcode,
    'address[region]': a.region,
    'address[city]': a.city,
    'address[street]': defined(a.street[0], "the built address's street"),
  }).toString()
}

/** The run's source's code. */
async function ownCode(fx: Provisioner): Promise<string> {
  return (await ownSource(fx)).source_code
}

/** An order of the run's own (a guest's, unshipped): the pickup notice names it. */
function ownOrder(fx: Provisioner): Promise<number> {
  return fx.session.memo(
    'valid request: own order for a pickup notice',
    async () => (await fx.guestOrder('pickup notice')).orderId,
  )
}

export const inventoryOtherRecipes: RequestRecipe[] = [
  {
    endpoint: endpointId('POST /V1/inventory/bulk-product-source-assign'),
    // Assigning what is assigned already changes nothing.
    again: 'reuse',
    prepare: async (fx) => ({
      actor: 'admin',
      path: {},
      body: { skus: [(await inventoryProduct(fx, 'assigned')).sku], sourceCodes: [await ownCode(fx)] },
    }),
  },
  {
    endpoint: endpointId('POST /V1/inventory/bulk-product-source-unassign'),
    // Put back at the run's source before each caller.
    prepare: async (fx) => {
      const product = await inventoryProduct(fx, 'bulk unassigned')
      const code = await ownCode(fx)
      await putAtSources(fx, product.sku, { [code]: 0 })
      return { actor: 'admin', path: {}, body: { skus: [product.sku], sourceCodes: [code] } }
    },
  },
  {
    endpoint: endpointId('POST /V1/inventory/bulk-product-source-transfer'),
    // Everything of the product moves from the default source to the run's; sent again, nothing is left to move.
    again: 'reuse',
    // The platform then rebuilds the index of every stock the two sources are linked to.
    lane: STOCK_REINDEX,
    prepare: async (fx) => ({
      actor: 'admin',
      path: {},
      body: {
        skus: [(await inventoryProduct(fx, 'transferred')).sku],
        originSource: DEFAULT_SOURCE,
        destinationSource: await ownCode(fx),
        unassignFromOrigin: false,
      },
    }),
  },
  {
    endpoint: endpointId('POST /V1/inventory/bulk-partial-source-transfer'),
    // One of the product's 1000 units at the default source moves to the run's source each time. The platform then
    // rebuilds the index of every stock the two sources are linked to, in a replica table: a real 2.4.7 answered this
    // request, sent while the run's other transfers and link saves rebuilt the same stock, 400 "Table
    // inventory_stock_2_replica already exits" (the body is the contract's: `originSourceCode`,
    // `destinationSourceCode`, `items` [{sku, qty}]).
    again: 'reuse',
    lane: STOCK_REINDEX,
    prepare: async (fx) => ({
      actor: 'admin',
      path: {},
      body: {
        originSourceCode: DEFAULT_SOURCE,
        destinationSourceCode: await ownCode(fx),
        items: [{ sku: (await inventoryProduct(fx, 'partly transferred')).sku, qty: 1 }],
      },
    }),
  },
  {
    endpoint: endpointId('POST /V1/inventory/low-quantity-notification'),
    again: 'reuse',
    prepare: async (fx) => ({
      actor: 'admin',
      path: {},
      body: {
        sourceItemConfigurations: [
          { source_code: await ownCode(fx), sku: (await inventoryProduct(fx, 'assigned')).sku, notify_stock_qty: 2 },
        ],
      },
    }),
  },
  {
    endpoint: endpointId('POST /V1/inventory/low-quantity-notifications-delete'),
    // The threshold is set again before each caller: what the removal names is there to remove.
    prepare: async (fx) => {
      const item = { source_code: await ownCode(fx), sku: (await inventoryProduct(fx, 'threshold removed')).sku }
      await fx.call('set a low-quantity threshold', {
        method: 'POST',
        path: '/V1/inventory/low-quantity-notification',
        actor: 'admin',
        body: { sourceItemConfigurations: [{ ...item, notify_stock_qty: 3 }] },
        repeat: 'safe',
      })
      return { actor: 'admin', path: {}, body: { sourceItems: [item] } }
    },
  },
  {
    endpoint: endpointId('POST /V1/inventory/source-selection-algorithm-result'),
    // A computation: nothing is reserved or deducted. The stock is the request's constructor argument, `stockId` (the
    // primary, camelCase form): a 2.4.7 shop answers `stock_id`, the key its own schema documents, with 500 "Missing
    // required argument $stockId" (fixtures/observations/real-runs/2.4.7-p7/report-full-valid-probes.json).
    again: 'reuse',
    prepare: async (fx) => ({
      actor: 'admin',
      path: {},
      body: {
        inventoryRequest: {
          stockId: DEFAULT_STOCK,
          items: [{ sku: (await inventoryProduct(fx, 'assigned')).sku, qty: 1 }],
        },
        algorithmCode: 'priority',
      },
    }),
  },
  {
    endpoint: endpointId('POST /V1/order/notify-orders-are-ready-for-pickup'),
    // The platform ships each order it notifies (a 2.4.7 shop shipped an order delivered by flat rate): the order's
    // shipment is in the ledger before each send, found by its order (the answer names none). Sent again, an order
    // shipped already is answered as not ready (the answer's `errors`), and nothing more is made.
    again: 'reuse',
    prepare: async (fx) => ({ actor: 'admin', path: {}, body: { orderIds: [await ownOrder(fx)] } }),
    creates: {
      kind: 'shipment',
      idOf: () => undefined,
      keyOf: (body) =>
        Array.isArray(body.orderIds) && body.orderIds.length === 1 ? String(body.orderIds[0]) : undefined,
    },
  },
  {
    endpoint: endpointId('GET /V1/inventory/get-distance'),
    prepare: () => Promise.resolve({ actor: 'admin', path: {}, query: DISTANCE_QUERY }),
  },
  {
    endpoint: endpointId('GET /V1/inventory/get-latslngs-from-address'),
    prepare: (fx, label) => Promise.resolve({ actor: 'admin', path: {}, query: addressQuery(fx, label) }),
  },
  {
    endpoint: endpointId('GET /V1/inventory/dump-stock-index-data/:salesChannelType/:salesChannelCode'),
    prepare: () => Promise.resolve({ actor: 'admin', path: { ...SALES_CHANNEL } }),
  },
  {
    endpoint: endpointId('GET /V1/inventory/export-stock-salable-qty/:salesChannelType/:salesChannelCode'),
    prepare: () => Promise.resolve({ actor: 'admin', path: { ...SALES_CHANNEL }, query: SEARCH_PAGE }),
  },
]
