import type { EndpointRow } from '../types.ts'

/**
 * Spec § Endpoints › Endpoint lists by module › ConfigurableProduct: one row per method+path, as the spec gives it.
 */
export const rows: EndpointRow[] = [
  {
    method: 'POST',
    path: '/V1/configurable-products/:sku/child',
    module: 'configurable-product',
    contract: 'LinkManagementInterface::addChild',
    access: 'admin',
    params: [{ name: 'sku', in: 'path' }],
    sections: ['Endpoints › Endpoint lists by module › ConfigurableProduct'],
  },
  {
    method: 'POST',
    path: '/V1/configurable-products/:sku/options',
    module: 'configurable-product',
    contract: 'OptionRepositoryInterface::save',
    access: 'admin',
    params: [{ name: 'sku', in: 'path' }],
    sections: ['Endpoints › Endpoint lists by module › ConfigurableProduct'],
  },
  {
    method: 'PUT',
    path: '/V1/configurable-products/:sku/options/:id',
    module: 'configurable-product',
    contract: 'OptionRepositoryInterface::save',
    access: 'admin',
    params: [
      { name: 'sku', in: 'path' },
      { name: 'id', in: 'path' },
    ],
    sections: ['Endpoints › Endpoint lists by module › ConfigurableProduct'],
  },
  {
    method: 'PUT',
    path: '/V1/configurable-products/variation',
    module: 'configurable-product',
    contract: 'ConfigurableProductManagementInterface::generateVariation',
    access: 'admin',
    sections: ['Endpoints › Endpoint lists by module › ConfigurableProduct'],
  },
  {
    method: 'GET',
    path: '/V1/configurable-products/:sku/children',
    module: 'configurable-product',
    contract: 'LinkManagementInterface::getChildren',
    access: 'admin',
    params: [{ name: 'sku', in: 'path' }],
    sections: ['Endpoints › Endpoint lists by module › ConfigurableProduct'],
  },
  {
    method: 'GET',
    path: '/V1/configurable-products/:sku/options/:id',
    module: 'configurable-product',
    contract: 'OptionRepositoryInterface::get',
    access: 'admin',
    params: [
      { name: 'sku', in: 'path' },
      { name: 'id', in: 'path' },
    ],
    sections: ['Endpoints › Endpoint lists by module › ConfigurableProduct'],
  },
  {
    method: 'GET',
    path: '/V1/configurable-products/:sku/options/all',
    module: 'configurable-product',
    contract: 'OptionRepositoryInterface::getList',
    access: 'admin',
    params: [{ name: 'sku', in: 'path' }],
    sections: ['Endpoints › Endpoint lists by module › ConfigurableProduct'],
  },
]
