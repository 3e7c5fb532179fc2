import type { EndpointRow } from '../types.ts'

/**
 * Spec § Endpoints › Endpoint lists by module › CatalogInventory and CheckoutAgreements: one row per method+path, as
 * the spec gives it.
 */
export const rows: EndpointRow[] = [
  {
    method: 'PUT',
    path: '/V1/products/:productSku/stockItems/:itemId',
    module: 'catalog-inventory-agreements',
    contract: 'StockRegistryInterface::updateStockItemBySku',
    access: 'admin',
    params: [
      { name: 'productSku', in: 'path' },
      { name: 'itemId', in: 'path' },
    ],
    sections: ['Endpoints › Endpoint lists by module › CatalogInventory and CheckoutAgreements'],
  },
  {
    method: 'GET',
    path: '/V1/stockItems/:productSku',
    module: 'catalog-inventory-agreements',
    contract: 'StockRegistryInterface::getStockItemBySku',
    access: 'admin',
    params: [{ name: 'productSku', in: 'path' }],
    sections: ['Endpoints › Endpoint lists by module › CatalogInventory and CheckoutAgreements'],
  },
  {
    method: 'GET',
    path: '/V1/stockItems/lowStock',
    module: 'catalog-inventory-agreements',
    contract: 'StockRegistryInterface::getLowStockItems',
    access: 'admin',
    purpose: 'SKUs with low quantity',
    sections: ['Endpoints › Endpoint lists by module › CatalogInventory and CheckoutAgreements'],
  },
  {
    method: 'GET',
    path: '/V1/stockStatuses/:productSku',
    module: 'catalog-inventory-agreements',
    contract: 'StockRegistryInterface::getStockStatusBySku',
    access: 'admin',
    params: [{ name: 'productSku', in: 'path' }],
    sections: ['Endpoints › Endpoint lists by module › CatalogInventory and CheckoutAgreements'],
  },
  {
    method: 'GET',
    path: '/V1/carts/licence',
    module: 'catalog-inventory-agreements',
    contract: 'CheckoutAgreementsRepositoryInterface::getList',
    access: 'admin',
    purpose: 'active agreements',
    sections: ['Endpoints › Endpoint lists by module › CatalogInventory and CheckoutAgreements'],
  },
  {
    method: 'GET',
    path: '/V1/carts/licence/list',
    module: 'catalog-inventory-agreements',
    contract: 'CheckoutAgreementsListInterface::getList',
    access: 'admin',
    sections: ['Endpoints › Endpoint lists by module › CatalogInventory and CheckoutAgreements'],
  },
]
