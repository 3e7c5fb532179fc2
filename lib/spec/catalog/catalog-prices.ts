import type { EndpointRow } from '../types.ts'

/**
 * Spec § Endpoints › Endpoint lists by module › Catalog: prices and costs: one row per method+path, as the spec gives it.
 */
export const rows: EndpointRow[] = [
  {
    method: 'POST',
    path: '/V1/products/:sku/group-prices/:customerGroupId/tiers/:qty/price/:price',
    module: 'catalog-prices',
    contract: 'ProductTierPriceManagementInterface::add',
    access: 'admin',
    params: [
      { name: 'sku', in: 'path' },
      { name: 'customerGroupId', in: 'path' },
      { name: 'qty', in: 'path' },
      { name: 'price', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › Catalog: prices and costs',
    ],
  },
  {
    method: 'GET',
    path: '/V1/products/:sku/group-prices/:customerGroupId/tiers',
    module: 'catalog-prices',
    family: 'catalog',
    contract: 'ProductTierPriceManagementInterface::getList',
    contractModule: 'Catalog',
    access: 'admin',
    acl: 'Shop_Catalog::catalog',
    params: [
      { name: 'sku', in: 'path', type: 'string', required: true },
      { name: 'customerGroupId', in: 'path', type: 'string', required: true, note: 'the value `all` means all groups' },
    ],
    returns: 'ProductTierPriceInterface[]',
    sections: [
      'Endpoints › Endpoint lists by module › Catalog: prices and costs',
      'Endpoints › Endpoints with detailed shape',
    ],
  },
  {
    method: 'POST',
    path: '/V1/products/base-prices',
    module: 'catalog-prices',
    batch: { prices: 'base', op: 'update', invalid: ['unknown sku', 'invalid price', 'unknown store id'] },
    contract: 'BasePriceStorageInterface::update',
    access: 'admin',
    purpose: 'input items correspond to the cost item type; invalid price, store id or sku fail the item',
    sections: [
      'Endpoints › Endpoint lists by module › Catalog: prices and costs',
    ],
  },
  {
    method: 'POST',
    path: '/V1/products/base-prices-information',
    module: 'catalog-prices',
    batch: { prices: 'base', op: 'information' },
    contract: 'BasePriceStorageInterface::get',
    access: 'admin',
    purpose: 'exception if any sku is unknown',
    sections: [
      'Endpoints › Endpoint lists by module › Catalog: prices and costs',
    ],
  },
  {
    method: 'POST',
    path: '/V1/products/cost',
    module: 'catalog-prices',
    batch: { prices: 'cost', op: 'update', invalid: ['unknown sku', 'invalid cost', 'unknown store id'] },
    contract: 'CostStorageInterface::update',
    access: 'admin',
    purpose: 'invalid cost, store id or sku fail the item',
    sections: [
      'Endpoints › Endpoint lists by module › Catalog: prices and costs',
    ],
  },
  {
    method: 'POST',
    path: '/V1/products/cost-delete',
    module: 'catalog-prices',
    batch: { prices: 'cost', op: 'cost-delete' },
    contract: 'CostStorageInterface::delete',
    access: 'admin',
    purpose: 'exception if any sku is unknown or on delete error',
    sections: [
      'Endpoints › Endpoint lists by module › Catalog: prices and costs',
    ],
  },
  {
    method: 'POST',
    path: '/V1/products/cost-information',
    module: 'catalog-prices',
    batch: { prices: 'cost', op: 'information' },
    contract: 'CostStorageInterface::get',
    access: 'admin',
    purpose: 'exception if any sku is unknown',
    sections: [
      'Endpoints › Endpoint lists by module › Catalog: prices and costs',
    ],
  },
  {
    method: 'POST',
    path: '/V1/products/special-price',
    module: 'catalog-prices',
    batch: { prices: 'special', op: 'update', invalid: ['unknown sku', 'invalid price', 'unknown store id', 'malformed date'] },
    contract: 'SpecialPriceStorageInterface::update',
    access: 'admin',
    purpose: 'invalid price, store id, sku or dates fail the item',
    sections: [
      'Endpoints › Endpoint lists by module › Catalog: prices and costs',
    ],
  },
  {
    method: 'POST',
    path: '/V1/products/special-price-delete',
    module: 'catalog-prices',
    batch: { prices: 'special', op: 'delete' },
    contract: 'SpecialPriceStorageInterface::delete',
    access: 'admin',
    sections: [
      'Endpoints › Endpoint lists by module › Catalog: prices and costs',
    ],
  },
  {
    method: 'POST',
    path: '/V1/products/special-price-information',
    module: 'catalog-prices',
    batch: { prices: 'special', op: 'information' },
    contract: 'SpecialPriceStorageInterface::get',
    access: 'admin',
    purpose: 'exception if any sku is unknown',
    sections: [
      'Endpoints › Endpoint lists by module › Catalog: prices and costs',
    ],
  },
  {
    method: 'POST',
    path: '/V1/products/tier-prices',
    module: 'catalog-prices',
    batch: {
      prices: 'tier',
      op: 'update',
      invalid: ['unknown sku', 'invalid price', 'invalid price type', 'unknown website id', 'unknown customer group', 'invalid quantity'],
    },
    contract: 'TierPriceStorageInterface::update',
    access: 'admin',
    purpose: 'invalid price, price type, website id, sku, customer group or quantity fail the item',
    sections: [
      'Endpoints › Endpoint lists by module › Catalog: prices and costs',
    ],
  },
  {
    method: 'POST',
    path: '/V1/products/tier-prices-delete',
    module: 'catalog-prices',
    batch: { prices: 'tier', op: 'delete' },
    contract: 'TierPriceStorageInterface::delete',
    access: 'admin',
    sections: [
      'Endpoints › Endpoint lists by module › Catalog: prices and costs',
    ],
  },
  {
    method: 'POST',
    path: '/V1/products/tier-prices-information',
    module: 'catalog-prices',
    batch: { prices: 'tier', op: 'information' },
    contract: 'TierPriceStorageInterface::get',
    access: 'admin',
    purpose: 'exception if any sku is unknown',
    sections: [
      'Endpoints › Endpoint lists by module › Catalog: prices and costs',
    ],
  },
  {
    method: 'PUT',
    path: '/V1/products/tier-prices',
    module: 'catalog-prices',
    batch: { prices: 'tier', op: 'replace' },
    contract: 'TierPriceStorageInterface::replace',
    access: 'admin',
    purpose: 'removes existing tier prices and sets the new ones',
    sections: [
      'Endpoints › Endpoint lists by module › Catalog: prices and costs',
    ],
  },
]
