import type { EndpointRow } from '../types.ts'

/**
 * Spec § Endpoints › Endpoint lists by module › InventoryApi: one row per method+path, as the spec gives it.
 */
export const rows: EndpointRow[] = [
  {
    method: 'POST',
    path: '/V1/inventory/source-items',
    module: 'inventory-api',
    contract: 'SourceItemsSaveInterface::execute',
    access: 'admin',
    purpose: 'multiple',
    sections: [
      'Endpoints › Endpoint lists by module › InventoryApi',
    ],
  },
  {
    method: 'POST',
    path: '/V1/inventory/source-items-delete',
    module: 'inventory-api',
    contract: 'SourceItemsDeleteInterface::execute',
    access: 'admin',
    sections: [
      'Endpoints › Endpoint lists by module › InventoryApi',
    ],
  },
  {
    method: 'POST',
    path: '/V1/inventory/sources',
    module: 'inventory-api',
    contract: 'SourceRepositoryInterface::save',
    access: 'admin',
    sections: [
      'Endpoints › Endpoint lists by module › InventoryApi',
    ],
  },
  {
    method: 'PUT',
    path: '/V1/inventory/sources/:sourceCode',
    module: 'inventory-api',
    contract: 'SourceRepositoryInterface::save',
    access: 'admin',
    params: [
      { name: 'sourceCode', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › InventoryApi',
    ],
  },
  {
    method: 'POST',
    path: '/V1/inventory/stock-source-links',
    module: 'inventory-api',
    contract: 'StockSourceLinksSaveInterface::execute',
    access: 'admin',
    sections: [
      'Endpoints › Endpoint lists by module › InventoryApi',
    ],
  },
  {
    method: 'POST',
    path: '/V1/inventory/stock-source-links-delete',
    module: 'inventory-api',
    contract: 'StockSourceLinksDeleteInterface::execute',
    access: 'admin',
    sections: [
      'Endpoints › Endpoint lists by module › InventoryApi',
    ],
  },
  {
    method: 'POST',
    path: '/V1/inventory/stocks',
    module: 'inventory-api',
    contract: 'StockRepositoryInterface::save',
    access: 'admin',
    sections: [
      'Endpoints › Endpoint lists by module › InventoryApi',
    ],
  },
  {
    method: 'PUT',
    path: '/V1/inventory/stocks/:stockId',
    module: 'inventory-api',
    contract: 'StockRepositoryInterface::save',
    access: 'admin',
    params: [
      { name: 'stockId', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › InventoryApi',
    ],
  },
  {
    method: 'GET',
    path: '/V1/inventory/get-sources-assigned-to-stock-ordered-by-priority/:stockId',
    module: 'inventory-api',
    contract: 'GetSourcesAssignedToStockOrderedByPriorityInterface::execute',
    access: 'admin',
    params: [
      { name: 'stockId', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › InventoryApi',
    ],
  },
  {
    method: 'GET',
    path: '/V1/inventory/source-items',
    module: 'inventory-api',
    contract: 'SourceItemRepositoryInterface::getList',
    access: 'admin',
    sections: [
      'Endpoints › Endpoint lists by module › InventoryApi',
    ],
  },
  {
    method: 'GET',
    path: '/V1/inventory/sources',
    module: 'inventory-api',
    contract: 'SourceRepositoryInterface::getList',
    access: 'admin',
    sections: [
      'Endpoints › Endpoint lists by module › InventoryApi',
    ],
  },
  {
    method: 'GET',
    path: '/V1/inventory/sources/:sourceCode',
    module: 'inventory-api',
    contract: 'SourceRepositoryInterface::get',
    access: 'admin',
    params: [
      { name: 'sourceCode', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › InventoryApi',
    ],
  },
  {
    method: 'GET',
    path: '/V1/inventory/stock-source-links',
    module: 'inventory-api',
    contract: 'GetStockSourceLinksInterface::execute',
    access: 'admin',
    sections: [
      'Endpoints › Endpoint lists by module › InventoryApi',
    ],
  },
  {
    method: 'GET',
    path: '/V1/inventory/stocks',
    module: 'inventory-api',
    contract: 'StockRepositoryInterface::getList',
    access: 'admin',
    sections: [
      'Endpoints › Endpoint lists by module › InventoryApi',
    ],
  },
  {
    method: 'GET',
    path: '/V1/inventory/stocks/:stockId',
    module: 'inventory-api',
    contract: 'StockRepositoryInterface::get',
    access: 'admin',
    params: [
      { name: 'stockId', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › InventoryApi',
    ],
  },
]
