import type { EndpointRow } from '../types.ts'

/**
 * Spec § Endpoints › Endpoint lists by module › Other inventory modules: one row per method+path, as the spec gives it.
 */
export const rows: EndpointRow[] = [
  {
    method: 'POST',
    path: '/V1/inventory/bulk-partial-source-transfer',
    module: 'inventory-other',
    contract: 'BulkPartialInventoryTransferInterface::execute',
    access: 'admin',
    sections: [
      'Endpoints › Endpoint lists by module › Other inventory modules',
    ],
  },
  {
    method: 'POST',
    path: '/V1/inventory/bulk-product-source-assign',
    module: 'inventory-other',
    contract: 'BulkSourceAssignInterface::execute',
    access: 'admin',
    sections: [
      'Endpoints › Endpoint lists by module › Other inventory modules',
    ],
  },
  {
    method: 'POST',
    path: '/V1/inventory/bulk-product-source-transfer',
    module: 'inventory-other',
    contract: 'BulkInventoryTransferInterface::execute',
    access: 'admin',
    sections: [
      'Endpoints › Endpoint lists by module › Other inventory modules',
    ],
  },
  {
    method: 'POST',
    path: '/V1/inventory/bulk-product-source-unassign',
    module: 'inventory-other',
    contract: 'BulkSourceUnassignInterface::execute',
    access: 'admin',
    sections: [
      'Endpoints › Endpoint lists by module › Other inventory modules',
    ],
  },
  {
    method: 'POST',
    path: '/V1/inventory/in-store-pickup/pickup-locations',
    module: 'inventory-other',
    contract: 'GetPickupLocationsInterface::execute',
    access: 'anon',
    purpose: 'search request in',
    sections: [
      'Endpoints › Endpoint lists by module › Other inventory modules',
    ],
  },
  {
    method: 'GET',
    path: '/V1/inventory/in-store-pickup/pickup-locations',
    module: 'inventory-other',
    // The spec names no contract for this endpoint.
    access: 'anon',
    purpose: 'pickup location lookup (cut off in the listing)',
    sections: [
      'Endpoints › Endpoint lists by module › Other inventory modules',
    ],
  },
  {
    method: 'POST',
    path: '/V1/order/notify-orders-are-ready-for-pickup',
    module: 'inventory-other',
    contract: 'NotifyOrdersAreReadyForPickupInterface::execute',
    access: 'admin',
    sections: [
      'Endpoints › Endpoint lists by module › Other inventory modules',
    ],
  },
  {
    method: 'POST',
    path: '/V1/inventory/low-quantity-notification',
    module: 'inventory-other',
    contract: 'SourceItemConfigurationsSaveInterface::execute',
    access: 'admin',
    sections: [
      'Endpoints › Endpoint lists by module › Other inventory modules',
    ],
  },
  {
    method: 'POST',
    path: '/V1/inventory/low-quantity-notifications-delete',
    module: 'inventory-other',
    contract: 'DeleteSourceItemsConfigurationInterface::execute',
    access: 'admin',
    sections: [
      'Endpoints › Endpoint lists by module › Other inventory modules',
    ],
  },
  {
    method: 'POST',
    path: '/V1/inventory/source-selection-algorithm-result',
    module: 'inventory-other',
    contract: 'SourceSelectionServiceInterface::execute',
    access: 'admin',
    purpose: 'inventory request and algorithm code in',
    sections: [
      'Endpoints › Endpoint lists by module › Other inventory modules',
    ],
  },
  {
    method: 'GET',
    path: '/V1/inventory/get-distance',
    module: 'inventory-other',
    contract: 'GetDistanceInterface::execute',
    access: 'admin',
    sections: [
      'Endpoints › Endpoint lists by module › Other inventory modules',
    ],
  },
  {
    method: 'GET',
    path: '/V1/inventory/get-distance-provider-code',
    module: 'inventory-other',
    contract: 'GetDistanceProviderCodeInterface::execute',
    access: 'admin',
    sections: [
      'Endpoints › Endpoint lists by module › Other inventory modules',
    ],
  },
  {
    method: 'GET',
    path: '/V1/inventory/get-latlng-from-address',
    module: 'inventory-other',
    family: 'catalog',
    contract: 'GetLatLngFromAddressInterface::execute',
    contractModule: 'InventoryDistanceBasedSourceSelectionApi',
    access: 'admin',
    acl: 'Shop_InventoryApi::source',
    params: [
      { name: 'address', in: 'query', type: 'AddressInterface', required: true },
    ],
    returns: 'LatLngInterface',
    sections: [
      'Endpoints › Endpoint lists by module › Other inventory modules',
      'Endpoints › Endpoints with detailed shape',
    ],
  },
  {
    method: 'GET',
    path: '/V1/inventory/get-latslngs-from-address',
    module: 'inventory-other',
    contract: 'GetLatsLngsFromAddressInterface::execute',
    access: 'admin',
    sections: [
      'Endpoints › Endpoint lists by module › Other inventory modules',
    ],
  },
  {
    method: 'GET',
    path: '/V1/inventory/dump-stock-index-data/:salesChannelType/:salesChannelCode',
    module: 'inventory-other',
    contract: 'ExportStockIndexDataInterface::execute',
    access: 'admin',
    params: [
      { name: 'salesChannelType', in: 'path' },
      { name: 'salesChannelCode', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › Other inventory modules',
    ],
  },
  {
    method: 'GET',
    path: '/V1/inventory/export-stock-salable-qty/:salesChannelType/:salesChannelCode',
    module: 'inventory-other',
    contract: 'ExportStockSalableQtyInterface::execute',
    access: 'admin',
    params: [
      { name: 'salesChannelType', in: 'path' },
      { name: 'salesChannelCode', in: 'path' },
    ],
    sections: [
      'Endpoints › Endpoint lists by module › Other inventory modules',
    ],
  },
]
