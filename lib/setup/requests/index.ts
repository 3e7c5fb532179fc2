/**
 * The valid request of every restricted spec endpoint (types.ts): one file per spec module, each a list of
 * recipes; the detailed endpoints' family scenarios (lib/setup/families) where a module file has none; and, for a
 * GET that names nothing in its path, the plain call (with a search criteria page, which list and search
 * endpoints require and the others ignore).
 */
import type { EndpointRow } from '../../spec/types.ts'
import { scenarioOf } from '../families/index.ts'
import { ownCustomerActor } from './shared.ts'
import type { RequestRecipe } from './types.ts'
import { SEARCH_PAGE } from './search.ts'
import { cmsRecipes } from './cms.ts'
import { catalogProductsRecipes } from './catalog-products.ts'
import { catalogAttributesRecipes } from './catalog-attributes.ts'
import { eavRecipes } from './eav.ts'
import { catalogPricesRecipes } from './catalog-prices.ts'
import { catalogInventoryAgreementsRecipes } from './catalog-inventory-agreements.ts'
import { customerRecipes } from './customer.ts'
import { salesTaxTfaRecipes } from './sales-tax-tfa.ts'
import { quoteRecipes } from './quote.ts'
import { checkoutRecipes } from './checkout.ts'
import { giftMessageRecipes } from './gift-message.ts'
import { integrationRecipes } from './integration.ts'
import { analyticsAsyncBackendRecipes } from './analytics-async-backend.ts'
import { stockMediaRecipes } from './stock-media.ts'
import { inventoryApiRecipes } from './inventory-api.ts'
import { inventoryOtherRecipes } from './inventory-other.ts'
import { catalogCategoriesRecipes } from './catalog-categories.ts'
import { bundleRecipes } from './bundle.ts'
import { downloadableRecipes } from './downloadable.ts'
import { configurableProductRecipes } from './configurable-product.ts'
import { endpointId, rowId } from '../../spec/catalog/index.ts'
import type { EndpointId } from '../../spec/endpoint-id.ts'

export type { RequestRecipe } from './types.ts'

/** The module files' recipes, each file's under its module id. */
const BY_MODULE: Readonly<Record<string, readonly RequestRecipe[]>> = {
  cms: cmsRecipes,
  'catalog-products': catalogProductsRecipes,
  'catalog-attributes': catalogAttributesRecipes,
  eav: eavRecipes,
  'catalog-prices': catalogPricesRecipes,
  'catalog-inventory-agreements': catalogInventoryAgreementsRecipes,
  customer: customerRecipes,
  'sales-tax-tfa': salesTaxTfaRecipes,
  quote: quoteRecipes,
  checkout: checkoutRecipes,
  'gift-message': giftMessageRecipes,
  integration: integrationRecipes,
  'analytics-async-backend': analyticsAsyncBackendRecipes,
  'stock-media': stockMediaRecipes,
  'inventory-api': inventoryApiRecipes,
  'inventory-other': inventoryOtherRecipes,
  'catalog-categories': catalogCategoriesRecipes,
  bundle: bundleRecipes,
  downloadable: downloadableRecipes,
  'configurable-product': configurableProductRecipes,
}

/**
 * Endpoints no valid request can be built for, with why: the access and acl checks leave them not judged, and the
 * docs/checks.md lists them.
 */
export const NO_VALID_REQUEST: Readonly<Partial<Record<EndpointId, string>>> = {
  [endpointId('PUT /V1/tfa/default-provider-code/:userId')]: "it would change an admin user's two-factor settings",
  [endpointId('PUT /V1/tfa/user-providers/:userId')]: "it would change an admin user's two-factor settings",
  [endpointId('POST /V1/carts/mine/payment-order')]:
    'creates a payment order at the payment services provider: needs the shop onboarded with that external service',
  [endpointId('POST /V1/carts/mine/payment-order/:id')]:
    'syncs a payment order the external payment services provider made: needs that service and an order id of its',
  [endpointId('POST /V1/cardvault/mine/payment/vault')]:
    'vaults a card through the external payment partner: needs a setup token that partner issued',
  [endpointId('GET /V1/analytics/link')]:
    "the link exists only once the advanced-reporting service (the vendor's, outside the shop) has collected the shop's data; a default-configured 2.4.7 refuses it (400)",
  [endpointId('GET /V1/stockmedia/search')]:
    "it searches the stock-media vendor's service, which needs the shop's account credentials for it; without them a 2.4.7 refuses it (400)",
}

/**
 * Endpoints whose valid request is sent, but which a default-configured 2.4.7 answers with no success, with why: its
 * admin then gets a 4xx, so access there is read from the refusals (401/403) alone. A shop configured for them, or
 * another implementation, answers them. docs/checks.md lists them; requests.test.ts keeps both in step.
 */
export const NO_SUCCESS_ON_DEFAULT_PLATFORM: Readonly<Partial<Record<EndpointId, string>>> = {
  [endpointId('GET /V1/inventory/get-distance')]:
    'the default distance provider is Google\'s: without a Google API key configured a 2.4.7 answers 400 "Google API key is not defined" (the offline provider needs the geonames data imported)',
  [endpointId('GET /V1/inventory/get-latlng-from-address')]:
    'the same: the Google provider needs an API key, the offline one the geonames data',
  [endpointId('GET /V1/inventory/get-latslngs-from-address')]:
    'the same: the Google provider needs an API key, the offline one the geonames data',
  [endpointId('PUT /V1/creditmemo/:id')]:
    'a 2.4.x release refuses every cancel of a credit memo (400 "You can not cancel Credit Memo"); the spec lists the call',
}

const RECIPES: ReadonlyMap<EndpointId, RequestRecipe> = (() => {
  const map = new Map<EndpointId, RequestRecipe>()
  for (const recipes of Object.values(BY_MODULE)) {
    for (const r of recipes) {
      if (map.has(r.endpoint)) throw new Error(`two valid requests for ${r.endpoint}`)
      map.set(r.endpoint, r)
    }
  }
  return map
})()

/** The row's valid request, or undefined when none is known (NO_VALID_REQUEST says why where that is by design). */
export function recipeOf(row: EndpointRow): RequestRecipe | undefined {
  const id = rowId(row)
  const own = RECIPES.get(id)
  if (own !== undefined) return own
  const scenario = scenarioOf(row)
  if (scenario !== undefined) {
    return {
      endpoint: id,
      prepare: (fx, label) => scenario.prepare(fx, label),
      ...(scenario.creates !== undefined ? { creates: scenario.creates } : {}),
    }
  }
  if (row.method === 'GET' && !row.path.includes(':') && row.access !== 'anon' && NO_VALID_REQUEST[id] === undefined) {
    return {
      endpoint: id,
      prepare: async (fx) => ({
        actor: row.access === 'self' ? await ownCustomerActor(fx) : 'admin',
        path: {},
        query: SEARCH_PAGE,
      }),
    }
  }
  return undefined
}
