/**
 * Valid requests of the catalog-prices module: the prices of a product of the run's own (platform conventions,
 * "Batch prices": `prices` items with a store, website, group code and quantity; `skus` for the information calls).
 * Saves of the same values may be sent by every caller; each removal first sets what it removes, so the next caller's
 * request is prepared afresh. The per-group tier list is the detail table's (lib/setup/families/catalog.ts).
 */
import type { Provisioner } from '../provision.ts'
import type { RequestRecipe } from './types.ts'
import type { PreparedCall } from '../families/types.ts'
import { ownProduct } from './catalog-own.ts'
import { endpointId } from '../../spec/catalog/index.ts'

const OWN = 'prices own'

interface Own {
  sku: string
  base: Record<string, unknown>
  cost: Record<string, unknown>
  special: Record<string, unknown>
  tier: Record<string, unknown>
}

/** The run's product and one item of each price kind for it, on the global scope (store and website 0). */
function own(fx: Provisioner): Promise<Own> {
  return fx.session.memo('valid request: catalog prices', async () => {
    const { sku, price } = await ownProduct(fx, OWN)
    const below = (share: number) => Math.max(0.01, Math.round(price * share * 100) / 100)
    return {
      sku,
      // The product's own price: saving it again changes nothing.
      base: { sku, price, store_id: 0 },
      cost: { sku, cost: below(0.5), store_id: 0 },
      // A period far ahead: the product's price today stays as it is.
      special: {
        sku,
        price: below(0.8),
        store_id: 0,
        price_from: '2035-01-01 00:00:00',
        price_to: '2035-12-31 23:59:59',
      },
      // `General` (id 1) is a customer group every install has.
      tier: { sku, price: below(0.9), price_type: 'fixed', website_id: 0, customer_group: 'General', quantity: 2 },
    }
  })
}

const admin = (body: Record<string, unknown>): PreparedCall => ({ actor: 'admin', path: {}, body })

/** A removal's request, after the call that sets what it removes (the set-up call of the run's own product). */
async function afterSetting(
  fx: Provisioner,
  what: string,
  path: string,
  body: Record<string, unknown>,
  removal: Record<string, unknown>,
): Promise<PreparedCall> {
  await fx.call(`set the ${what} the removal removes`, { method: 'POST', path, actor: 'admin', body })
  return admin(removal)
}

export const catalogPricesRecipes: RequestRecipe[] = [
  {
    endpoint: endpointId('POST /V1/products/:sku/group-prices/:customerGroupId/tiers/:qty/price/:price'),
    // Adding the same tier again replaces it with itself.
    again: 'reuse',
    prepare: async (fx) => {
      const { sku, price } = await ownProduct(fx, OWN)
      return {
        actor: 'admin',
        path: { sku, customerGroupId: 1, qty: 3, price: Math.max(0.01, Math.round(price * 85) / 100) },
      }
    },
  },
  {
    endpoint: endpointId('POST /V1/products/base-prices'),
    again: 'reuse',
    prepare: async (fx) => admin({ prices: [(await own(fx)).base] }),
  },
  {
    endpoint: endpointId('POST /V1/products/base-prices-information'),
    again: 'reuse',
    prepare: async (fx) => admin({ skus: [(await own(fx)).sku] }),
  },
  {
    endpoint: endpointId('POST /V1/products/cost'),
    again: 'reuse',
    prepare: async (fx) => admin({ prices: [(await own(fx)).cost] }),
  },
  {
    endpoint: endpointId('POST /V1/products/cost-delete'),
    prepare: async (fx) => {
      const o = await own(fx)
      return afterSetting(fx, 'cost', '/V1/products/cost', { prices: [o.cost] }, { skus: [o.sku] })
    },
  },
  {
    endpoint: endpointId('POST /V1/products/cost-information'),
    again: 'reuse',
    prepare: async (fx) => admin({ skus: [(await own(fx)).sku] }),
  },
  {
    endpoint: endpointId('POST /V1/products/special-price'),
    again: 'reuse',
    prepare: async (fx) => admin({ prices: [(await own(fx)).special] }),
  },
  {
    endpoint: endpointId('POST /V1/products/special-price-delete'),
    prepare: async (fx) => {
      const o = await own(fx)
      return afterSetting(
        fx,
        'special price',
        '/V1/products/special-price',
        { prices: [o.special] },
        { prices: [o.special] },
      )
    },
  },
  {
    endpoint: endpointId('POST /V1/products/special-price-information'),
    again: 'reuse',
    prepare: async (fx) => admin({ skus: [(await own(fx)).sku] }),
  },
  {
    endpoint: endpointId('POST /V1/products/tier-prices'),
    again: 'reuse',
    prepare: async (fx) => admin({ prices: [(await own(fx)).tier] }),
  },
  {
    endpoint: endpointId('POST /V1/products/tier-prices-delete'),
    prepare: async (fx) => {
      const o = await own(fx)
      return afterSetting(fx, 'tier price', '/V1/products/tier-prices', { prices: [o.tier] }, { prices: [o.tier] })
    },
  },
  {
    endpoint: endpointId('POST /V1/products/tier-prices-information'),
    again: 'reuse',
    prepare: async (fx) => admin({ skus: [(await own(fx)).sku] }),
  },
  // Replaces the product's tiers with the one it has (or gets) from the update: the same every time.
  {
    endpoint: endpointId('PUT /V1/products/tier-prices'),
    again: 'reuse',
    prepare: async (fx) => admin({ prices: [(await own(fx)).tier] }),
  },
]
